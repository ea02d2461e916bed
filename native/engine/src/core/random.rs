/// Where a native game draws its unknowns when it resamples: Python's `random.Random` through the
/// bindings (so a native resample draws exactly what the Python rules draw from the same
/// generator), or a Rust generator inside native searches.
pub trait Randomness {
    /// A uniform integer in `0..n` (`n > 0`): Python's `rng.randrange(n)`.
    fn below(&mut self, n: u64) -> u64;
    /// A uniform float in `[0, 1)`: Python's `rng.random()`.
    fn unit(&mut self) -> f64;
}

impl Randomness for rand::rngs::SmallRng {
    fn below(&mut self, n: u64) -> u64 {
        rand::Rng::random_range(self, 0..n)
    }

    fn unit(&mut self) -> f64 {
        rand::Rng::random::<f64>(self)
    }
}

/// Python's `random.shuffle(items)`, draw for draw: the same generator state gives the same order.
pub fn python_shuffle<T>(rng: &mut dyn Randomness, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

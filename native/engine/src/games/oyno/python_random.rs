//! CPython 3.11's `random.Random`, draw for draw, for the few methods the difficulty generator
//! calls (`generator.ticket_setup`): seeding from a string, `random()`, `randrange(n)` and
//! `sample(population, k)`. A ticket's set-up is defined by those draws, so the native deal must
//! make the same ones to deal the same puzzle.
//!
//! The generator is the Mersenne Twister MT19937 (`_randommodule.c`); a string seed is hashed as
//! `random.seed` version 2 does it: the seed's bytes followed by their SHA-512, read as one
//! big-endian integer, fed to `init_by_array` as 32-bit words, least significant first.

const STATE_WORDS: usize = 624;
const SHIFT_POINT: usize = 397;

pub struct PythonRandom {
    state: [u32; STATE_WORDS],
    index: usize,
}

impl PythonRandom {
    /// `random.Random(seed)` for a string `seed`.
    pub fn from_text(seed: &str) -> PythonRandom {
        let mut bytes = seed.as_bytes().to_vec();
        bytes.extend_from_slice(&sha512(seed.as_bytes()));
        // the integer's 32-bit words, least significant first, without leading zero words
        let mut words: Vec<u32> = bytes
            .rchunks(4)
            .map(|chunk| {
                chunk
                    .iter()
                    .fold(0u32, |word, &b| (word << 8) | u32::from(b))
            })
            .collect();
        while words.len() > 1 && words.last() == Some(&0) {
            words.pop();
        }
        PythonRandom::from_key(&words)
    }

    /// `init_by_array(key)`.
    fn from_key(key: &[u32]) -> PythonRandom {
        let mut random = PythonRandom::from_word(19_650_218);
        let mt = &mut random.state;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..STATE_WORDS.max(key.len()) {
            let previous = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ previous.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= STATE_WORDS {
                mt[0] = mt[STATE_WORDS - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..STATE_WORDS - 1 {
            let previous = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ previous.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= STATE_WORDS {
                mt[0] = mt[STATE_WORDS - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        random
    }

    /// `init_genrand(seed)`.
    fn from_word(seed: u32) -> PythonRandom {
        let mut state = [0u32; STATE_WORDS];
        state[0] = seed;
        for i in 1..STATE_WORDS {
            state[i] = 1_812_433_253u32
                .wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        PythonRandom {
            state,
            index: STATE_WORDS,
        }
    }

    /// `genrand_uint32()`.
    fn next_word(&mut self) -> u32 {
        if self.index >= STATE_WORDS {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    fn twist(&mut self) {
        let mt = &mut self.state;
        for k in 0..STATE_WORDS {
            let y = (mt[k] & 0x8000_0000) | (mt[(k + 1) % STATE_WORDS] & 0x7fff_ffff);
            let odd = if y & 1 == 1 { 0x9908_b0df } else { 0 };
            mt[k] = mt[(k + SHIFT_POINT) % STATE_WORDS] ^ (y >> 1) ^ odd;
        }
        self.index = 0;
    }

    /// `random()`: a float in [0, 1) from 53 random bits.
    pub fn random(&mut self) -> f64 {
        let high = f64::from(self.next_word() >> 5);
        let low = f64::from(self.next_word() >> 6);
        (high * 67_108_864.0 + low) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(bits)` for `1 <= bits <= 32`.
    fn bits(&mut self, bits: u32) -> u32 {
        self.next_word() >> (32 - bits)
    }

    /// `_randbelow(n)` (also `randrange(n)`), `0 < n < 2^32`: the fewest bits that hold `n`,
    /// drawn again until below it.
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0; // CPython refuses an empty range; no caller asks for one
        }
        let bits = 32 - n.leading_zeros();
        loop {
            let drawn = self.bits(bits);
            if drawn < n {
                return drawn;
            }
        }
    }

    /// `sample(population, k)`, `k <= len(population)`: a pool drawn from for small
    /// populations, else distinct indices drawn again on repeats, as CPython chooses.
    pub fn sample<T: Copy>(&mut self, population: &[T], k: usize) -> Vec<T> {
        let n = population.len();
        let k = k.min(n); // CPython refuses a larger sample; the game never asks for one
        let mut set_size = 21usize;
        if k > 5 {
            let exponent = ((k * 3) as f64).ln() / 4f64.ln();
            set_size += 4usize.pow(exponent.ceil() as u32);
        }
        if n <= set_size {
            let mut pool = population.to_vec();
            (0..k)
                .map(|i| {
                    let j = self.below((n - i) as u32) as usize;
                    let chosen = pool[j];
                    pool[j] = pool[n - i - 1];
                    chosen
                })
                .collect()
        } else {
            let mut selected = vec![false; n];
            (0..k)
                .map(|_| loop {
                    let j = self.below(n as u32) as usize;
                    if !selected[j] {
                        selected[j] = true;
                        return population[j];
                    }
                })
                .collect()
        }
    }
}

/// SHA-512 (FIPS 180-4) of `message`, the hash `random.seed` puts after a string seed.
pub fn sha512(message: &[u8]) -> [u8; 64] {
    const ROUND: [u64; 80] = [
        0x428a2f98d728ae22,
        0x7137449123ef65cd,
        0xb5c0fbcfec4d3b2f,
        0xe9b5dba58189dbbc,
        0x3956c25bf348b538,
        0x59f111f1b605d019,
        0x923f82a4af194f9b,
        0xab1c5ed5da6d8118,
        0xd807aa98a3030242,
        0x12835b0145706fbe,
        0x243185be4ee4b28c,
        0x550c7dc3d5ffb4e2,
        0x72be5d74f27b896f,
        0x80deb1fe3b1696b1,
        0x9bdc06a725c71235,
        0xc19bf174cf692694,
        0xe49b69c19ef14ad2,
        0xefbe4786384f25e3,
        0x0fc19dc68b8cd5b5,
        0x240ca1cc77ac9c65,
        0x2de92c6f592b0275,
        0x4a7484aa6ea6e483,
        0x5cb0a9dcbd41fbd4,
        0x76f988da831153b5,
        0x983e5152ee66dfab,
        0xa831c66d2db43210,
        0xb00327c898fb213f,
        0xbf597fc7beef0ee4,
        0xc6e00bf33da88fc2,
        0xd5a79147930aa725,
        0x06ca6351e003826f,
        0x142929670a0e6e70,
        0x27b70a8546d22ffc,
        0x2e1b21385c26c926,
        0x4d2c6dfc5ac42aed,
        0x53380d139d95b3df,
        0x650a73548baf63de,
        0x766a0abb3c77b2a8,
        0x81c2c92e47edaee6,
        0x92722c851482353b,
        0xa2bfe8a14cf10364,
        0xa81a664bbc423001,
        0xc24b8b70d0f89791,
        0xc76c51a30654be30,
        0xd192e819d6ef5218,
        0xd69906245565a910,
        0xf40e35855771202a,
        0x106aa07032bbd1b8,
        0x19a4c116b8d2d0c8,
        0x1e376c085141ab53,
        0x2748774cdf8eeb99,
        0x34b0bcb5e19b48a8,
        0x391c0cb3c5c95a63,
        0x4ed8aa4ae3418acb,
        0x5b9cca4f7763e373,
        0x682e6ff3d6b2b8a3,
        0x748f82ee5defb2fc,
        0x78a5636f43172f60,
        0x84c87814a1f0ab72,
        0x8cc702081a6439ec,
        0x90befffa23631e28,
        0xa4506cebde82bde9,
        0xbef9a3f7b2c67915,
        0xc67178f2e372532b,
        0xca273eceea26619c,
        0xd186b8c721c0c207,
        0xeada7dd6cde0eb1e,
        0xf57d4f7fee6ed178,
        0x06f067aa72176fba,
        0x0a637dc5a2c898a6,
        0x113f9804bef90dae,
        0x1b710b35131c471b,
        0x28db77f523047d84,
        0x32caab7b40c72493,
        0x3c9ebe0a15c9bebc,
        0x431d67c49c100d4c,
        0x4cc5d4becb3e42b6,
        0x597f299cfc657e2a,
        0x5fcb6fab3ad6faec,
        0x6c44198c4a475817,
    ];
    let mut hash: [u64; 8] = [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
    // the message, a one bit, zeros, and its length in bits (128 bits): whole 1024-bit blocks
    let mut padded = message.to_vec();
    padded.push(0x80);
    while padded.len() % 128 != 112 {
        padded.push(0);
    }
    padded.extend_from_slice(&((message.len() as u128) * 8).to_be_bytes());
    for block in padded.chunks_exact(128) {
        let mut schedule = [0u64; 80];
        for (t, word) in block.chunks_exact(8).enumerate() {
            schedule[t] = word.iter().fold(0u64, |w, &b| (w << 8) | u64::from(b));
        }
        for t in 16..80 {
            let s0 = schedule[t - 15].rotate_right(1)
                ^ schedule[t - 15].rotate_right(8)
                ^ (schedule[t - 15] >> 7);
            let s1 = schedule[t - 2].rotate_right(19)
                ^ schedule[t - 2].rotate_right(61)
                ^ (schedule[t - 2] >> 6);
            schedule[t] = schedule[t - 16]
                .wrapping_add(s0)
                .wrapping_add(schedule[t - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = hash;
        for t in 0..80 {
            let sum1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
            let choice = (e & f) ^ (!e & g);
            let t1 = h
                .wrapping_add(sum1)
                .wrapping_add(choice)
                .wrapping_add(ROUND[t])
                .wrapping_add(schedule[t]);
            let sum0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
            let majority = (a & b) ^ (a & c) ^ (b & c);
            let t2 = sum0.wrapping_add(majority);
            (h, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (word, add) in hash.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *word = word.wrapping_add(add);
        }
    }
    let mut digest = [0u8; 64];
    for (chunk, word) in digest.chunks_exact_mut(8).zip(hash) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    digest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sha512_is_hashlibs() {
        // hashlib.sha512(b"abc").hexdigest()
        assert_eq!(
            hex(&sha512(b"abc")),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
             2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        );
        // a message over one block: hashlib.sha512(b"x" * 200).hexdigest()[:16]
        assert_eq!(&hex(&sha512(&[b'x'; 200]))[..16], "ef978e23dc520404");
    }

    #[test]
    fn draws_are_cpythons() {
        // r = random.Random("oyno-difficulty/3/5/2/0"); [r.random(), r.randrange(24), ...]
        let mut random = PythonRandom::from_text("oyno-difficulty/3/5/2/0");
        assert_eq!(random.random(), EXPECTED_RANDOM);
        assert_eq!(random.below(24), EXPECTED_BELOW);
        assert_eq!(
            random.sample(&(0..24).collect::<Vec<_>>(), 8),
            EXPECTED_SAMPLE
        );
        assert_eq!(
            random.sample(&(0..100).collect::<Vec<_>>(), 3),
            EXPECTED_SPARSE
        );
    }

    const EXPECTED_RANDOM: f64 = 0.17477416371245902;
    const EXPECTED_BELOW: u32 = 13;
    const EXPECTED_SAMPLE: [u32; 8] = [11, 17, 18, 3, 4, 16, 13, 23];
    const EXPECTED_SPARSE: [u32; 3] = [44, 66, 88];
}

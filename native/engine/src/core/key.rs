//! A fast 64-bit hasher for the transposition keys of native searches (`Rules::transposition_key`):
//! a game hashes the fields its future depends on. Not for anything an attacker chooses: a
//! search's table only needs keys that rarely collide by chance.

use std::hash::Hasher;

/// A multiply-rotate hasher over words (the scheme of rustc's FxHash), finished by splitmix64's
/// mixer so that nearby positions spread over a table's slots.
#[derive(Default, Clone, Copy)]
pub struct PositionHasher {
    state: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl PositionHasher {
    pub fn new() -> PositionHasher {
        PositionHasher::default()
    }

    fn add(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for PositionHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value));
    }

    fn write_u16(&mut self, value: u16) {
        self.add(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.add(u64::from(value));
    }

    fn write_u64(&mut self, value: u64) {
        self.add(value);
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        mix64(self.state)
    }
}

/// splitmix64's finalizer: every input bit reaches every output bit.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

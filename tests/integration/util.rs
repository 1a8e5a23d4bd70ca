//! Helpers shared by the integration tests.

/// A small deterministic random source (xorshift64*), so that "random" games are the same on
/// every run and every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x % n as u64) as usize
    }
}

/// The `correspond` binary, built by cargo for these tests.
pub fn correspond() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("correspond").expect("the binary is built");
    cmd.env_remove("NO_COLOR");
    cmd
}

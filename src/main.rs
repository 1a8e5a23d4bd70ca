//! The `correspond` binary: parses the command line, runs it, and maps the result to an exit code.
//!
//! The command line is here, in the binary crate, and not in the library: it is the only layer
//! that prints or reads the environment and the clock, and keeping it out of the library lets
//! the compiler hold that line.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

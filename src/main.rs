//! The `correspond` binary: parses the command line, runs it, and maps the result to an exit code.

fn main() -> std::process::ExitCode {
    correspond::cli::main()
}

//! Thin entry point: all logic lives in the library (`empires::cli`).

fn main() {
    std::process::exit(empires::cli::main());
}

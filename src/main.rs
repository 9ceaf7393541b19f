fn main() -> std::process::ExitCode {
    proxima::cli::main()
}

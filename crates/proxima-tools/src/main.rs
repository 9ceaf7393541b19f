fn main() -> std::process::ExitCode {
    proxima_tools::cli::main()
}

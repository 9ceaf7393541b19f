fn main() {
    println!("proxima: under construction");
}

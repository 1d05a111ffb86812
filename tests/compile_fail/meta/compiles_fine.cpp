// Not a real compile-fail test: it compiles, so the compile_fail check must reject it.
int main() { return 0; }

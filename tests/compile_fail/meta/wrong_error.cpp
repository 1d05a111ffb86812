// Fails to compile, but not with the message its test expects.
int main() { return undeclared_identifier; }

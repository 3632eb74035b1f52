// Trivial program linked -static and -static-pie for is_statically_linked().
int main(void) { return 0; }

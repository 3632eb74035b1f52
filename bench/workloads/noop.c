// Does nothing: the fixed cost of starting and stopping a profiler around a program.
int main(void) { return 0; }

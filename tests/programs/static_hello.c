#include <stdio.h>
int main(void) { puts("static"); return 0; }

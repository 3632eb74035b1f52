// link: -static
#include <stdio.h>
int main(void) { puts("static"); return 0; }

#include <cstdio>

int main() { std::puts("hsdp-inspect: under construction"); return 0; }

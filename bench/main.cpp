#include <cstdio>

int main() { std::puts("hsdp-bench: under construction"); return 0; }

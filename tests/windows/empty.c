/*
 * An empty console program: the floor of a Windows program's cost under wine (wine's own start),
 * against which docs/windows.md measures nvitop.exe -1 (scripts/bench-windows.sh).
 */
int main(void) {
    return 0;
}

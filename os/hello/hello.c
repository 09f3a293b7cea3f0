/* SPDX-License-Identifier: MIT */
/* mbsuite-hello: the tiny program os.exec and os.shell start (lmbench's hello.c for
 * lat_proc exec/shell): it writes one line and exits. Built statically by the Makefile
 * and installed next to the mbsuite executable, so exec costs no dynamic loading. */
#include <unistd.h>

int main(void)
{
    static const char msg[] = "Hello world\n";
    return write(1, msg, sizeof msg - 1) == (ssize_t)(sizeof msg - 1) ? 0 : 1;
}

"""`python -m spmesh ...` (and the `spmesh` script): the spmesh command line that came with the
package, with the same arguments, output and exit status."""
import os
import subprocess
import sys


def main() -> int:
    executable = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "spmesh")
    if not os.path.isfile(executable):
        sys.stderr.write(f"spmesh: the command line is not installed with this package ({executable})\n")
        return 2
    return subprocess.call([executable, *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())

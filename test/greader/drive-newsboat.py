"""Drives newsboat's own screen through a pseudo-terminal, as a person at the keyboard would:
go down past newsboat's three query feeds (people you follow, starred, shared) to the first
subscription, open it, open its first article (newsboat marks it read and tells the server with
edit-tag), then quit. Usage: drive-newsboat.py <config> <cache> <urls>"""
import fcntl, os, pty, select, struct, sys, termios, time

config, cache, urls = sys.argv[1:4]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack('HHHH', 40, 120, 0, 0))
    os.environ['TERM'] = 'xterm'
    os.execvp('newsboat', ['newsboat', '-C', config, '-c', cache, '-u', urls])

screen = []


def drain(seconds, quiet=0.6):
    """Reads the screen until it has been quiet for `quiet` seconds (newsboat has drawn what the
    last key asked for, including what it fetched from the server first), `seconds` at most."""
    end = time.time() + seconds
    last = time.time()
    while time.time() < end and time.time() - last < quiet:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                screen.append(os.read(fd, 65536).decode('utf-8', 'replace'))
            except OSError:
                return
            last = time.time()


drain(8, quiet=1.0)
DOWN = b'\x1bOB'  # the down arrow in the keypad mode newsboat sets
for key, wait in ((DOWN, 1), (DOWN, 1), (DOWN, 1), (b'\r', 3), (b'\r', 4), (b'q', 2), (b'q', 2), (b'q', 3)):
    os.write(fd, key)
    drain(wait)
try:
    os.kill(pid, 0)
    os.write(fd, b'Q')
    drain(2)
except OSError:
    pass
_, status = os.waitpid(pid, 0)
sys.stdout.write(''.join(screen)[-4000:])
sys.exit(os.waitstatus_to_exitcode(status))

import { existsSync } from 'node:fs';

/** Debian's full browser (`apt-get install -y chromium`): the one users run */
export const CHROMIUM_BROWSER = '/usr/bin/chromium';
/**
 * Debian's headless shell of the same Chromium release (`apt-get install -y chromium-headless-shell`):
 * the same Blink, V8 and network stack without the browser's UI process machinery, and what
 * Playwright itself runs for headless Chromium. A browser file costs it about two thirds of the CPU
 * (reader-web: 17-18 CPU-s against 27-28, machine-wide, alternated), and the suite's browser files
 * are its largest CPU consumer. `.ci/run` installs it.
 */
export const CHROMIUM_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The binary the tests drive: the headless shell where it is installed, else the full browser.
 * `TEST_CHROMIUM=/usr/bin/chromium` runs the tests in the full browser instead.
 */
export const CHROMIUM_EXECUTABLE =
  process.env.TEST_CHROMIUM ??
  (existsSync(CHROMIUM_HEADLESS_SHELL) ? CHROMIUM_HEADLESS_SHELL : CHROMIUM_BROWSER);

/**
 * As the machine's notes prescribe for a root user on a closed network: no sandbox (root), no GPU,
 * and nothing that reaches out on its own (background networking, component updates, sync), which
 * this network refuses many at a time.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** whether the tests can drive a browser at all */
export const hasChromium = () => existsSync(CHROMIUM_EXECUTABLE);

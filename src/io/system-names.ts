/**
 * Names of the system an output path may be or reach through its links (outputs.ts): a device or a
 * process's descriptor, written in place, and the kernel's settings, never written.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Whether `path` is, or reaches through its links, a name under /dev or /proc. */
export function throughSystemDir(path: string): boolean {
  return systemNameOnTheWay(path, (p) => ['/dev', '/proc'].some((d) => p.startsWith(`${d}/`)));
}

/**
 * Whether `path` is, or reaches through its links, one of the kernel's settings: a name under /sys,
 * or under /proc other than a descriptor of a process (/proc/self/fd/1, which /dev/stdout is).
 * As root, --out /proc/sys/kernel/hostname wrote the report into the machine's name.
 */
export function kernelSetting(path: string): boolean {
  let setting = false;
  systemNameOnTheWay(path, (p) => {
    if (DESCRIPTOR.test(p)) return true; // a descriptor: not followed further
    setting = KERNEL.test(p);
    return setting;
  });
  if (setting) return true;
  // A directory on the way that is a link (/dev/shm/k -> /proc/sys/kernel): where the path really is.
  let real: string;
  try { real = realpathSync(path); } catch { return false; } // missing, or a pipe's descriptor: no setting
  return KERNEL.test(real) && !DESCRIPTOR.test(real);
}

const DESCRIPTOR = /^\/proc\/(self|thread-self|\d+)\/fd\/\d+$/;
const KERNEL = /^\/(proc|sys)\//;

/** Whether `found` holds for `path` or for a name its links lead through (followed one by one, at most 40). */
function systemNameOnTheWay(path: string, found: (p: string) => boolean): boolean {
  let p = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    if (found(p)) return true;
    let link: string;
    try {
      if (!lstatSync(p).isSymbolicLink()) break;
      link = readlinkSync(p);
    } catch {
      break;
    }
    p = resolve(dirname(p), link);
  }
  return false;
}

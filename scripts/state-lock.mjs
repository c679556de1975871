// One local server per state folder. Two servers on the same D1 database and Durable Object
// storage each keep their own in-memory view of a sandbox and write over each other (one answers
// 500 `UNIQUE constraint failed: _tape.seq`, the tape shows a gap), so a server takes the folder's
// lock before it opens anything in it, and a second one refuses at once, naming the folder and
// the process that holds it.
//
// The lock is a file in the state folder holding the holder's pid. It is created whole and
// atomically: written under a name of its own, then hard-linked to the lock's name, which fails
// if the lock exists (link(2) is as atomic as O_EXCL, and a reader never sees a half-written
// lock). A lock whose process no longer runs (a server killed with SIGKILL, a machine that
// restarted) is stale and taken over, with a note. The holder removes it on every way out.
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

export const LOCK_NAME = "pome-server.lock";

/** Whether `pid` names a running process (EPERM: it runs, as another user). */
export function processIsAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if (err?.code !== "EPERM") return false;
  }
  // Where /proc tells (Linux), a pid reused by something other than Node is not our server.
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("node");
  } catch {
    return true;
  }
}

/** The lock's holder as written, or undefined when there is no lock (or it cannot be read). */
export function readLock(lockPath) {
  try {
    const holder = JSON.parse(readFileSync(lockPath, "utf8"));
    return typeof holder?.pid === "number" ? holder : { pid: 0 };
  } catch (err) {
    return err?.code === "ENOENT" ? undefined : { pid: 0 };
  }
}

const describeHolder = (holder) =>
  `${holder.command ?? "a pome server"} (pid ${holder.pid}${holder.url ? `, serving ${holder.url}` : ""}${holder.started ? `, since ${holder.started}` : ""})`;

export class StateFolderInUse extends Error {
  constructor(stateDir, holder) {
    super(
      `the state folder ${stateDir} is in use by ${describeHolder(holder)}. ` +
        "Two servers on one state folder corrupt its sandboxes: stop that one, or give this one a folder of its own (POME_STATE_DIR=<folder> npm start).",
    );
    this.name = "StateFolderInUse";
    this.holder = holder;
  }
}

/**
 * Takes `stateDir`'s lock for this process, or throws StateFolderInUse naming the live holder.
 * `about` is what the holder is (command, url), for the message a second server prints.
 * `note` receives one line when a stale lock is taken over. Returns `release()`, which removes
 * the lock if this process still holds it; it is also run on process exit.
 */
export function takeStateLock(stateDir, about = {}, note = (line) => console.error(line)) {
  mkdirSync(stateDir, { recursive: true });
  const lockPath = path.join(stateDir, LOCK_NAME);
  const mine = { pid: process.pid, ...about, started: new Date().toISOString() };
  const draft = `${lockPath}.${process.pid}.draft`;
  writeFileSync(draft, `${JSON.stringify(mine)}\n`);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, lockPath);
        const release = () => releaseLock(lockPath);
        process.once("exit", release);
        return release;
      } catch (err) {
        if (err?.code !== "EEXIST") throw err;
      }
      const holder = readLock(lockPath);
      if (holder === undefined) continue; // released meanwhile: try again
      if (holder.pid !== process.pid && processIsAlive(holder.pid)) throw new StateFolderInUse(stateDir, holder);
      // Stale. Move it aside under a name of our own (rename is atomic: of two servers taking
      // it over at once, one moves it), and make sure what was moved is the stale lock, not a
      // lock a quicker server took in the meantime.
      const aside = `${lockPath}.${process.pid}.stale`;
      try {
        renameSync(lockPath, aside);
      } catch (err) {
        if (err?.code === "ENOENT") continue;
        throw err;
      }
      const moved = readLock(aside);
      if (moved && moved.pid !== holder.pid && processIsAlive(moved.pid)) {
        // Put the live lock back: linking fails only if yet another server holds the name now.
        try {
          linkSync(aside, lockPath);
        } catch {}
        unlinkSync(aside);
        throw new StateFolderInUse(stateDir, moved);
      }
      unlinkSync(aside);
      note(
        holder.pid
          ? `pome: took over the lock of ${stateDir}: ${describeHolder(holder)} is no longer running`
          : `pome: took over an unreadable lock file in ${stateDir}`,
      );
    }
    throw new Error(`could not take the lock of ${stateDir} (${lockPath}): it keeps changing hands`);
  } finally {
    try {
      unlinkSync(draft);
    } catch {}
  }
}

function releaseLock(lockPath) {
  if (readLock(lockPath)?.pid !== process.pid) return;
  try {
    unlinkSync(lockPath);
  } catch {}
}

/** Whether process `pid` exists (signal 0 checks without sending). EPERM: it exists, but is another user's. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

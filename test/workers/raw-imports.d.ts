// Vite's `?raw` imports: a file's text as a string (test fixtures read this way stay in the bundle,
// so tests never touch the file system).
declare module "*?raw" {
  const text: string;
  export default text;
}

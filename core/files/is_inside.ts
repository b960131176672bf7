import { isAbsolute, relative, sep } from "../../events/posix_path.ts";

/** Whether `path` equals `root` or lies below it (both absolute and normalized). Pure. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

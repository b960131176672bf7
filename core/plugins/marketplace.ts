import { dirname, isAbsolute, join, normalize, resolve } from "../../events/posix_path.ts";
import { isInside } from "../files/is_inside.ts";
import { isRecord } from "../settings/is_record.ts";
import { badPluginName } from "./plugin_manifest.ts";

/** Where a marketplace keeps its list of plugins, under its folder. */
export const MARKETPLACE_PATH = ".claude-plugin/marketplace.json";

/** A git repository to clone: its URL, and optionally a branch or tag, a commit, a sub-folder. */
export interface GitPlace {
  url: string;
  /** A branch or tag (`--branch`). */
  ref?: string;
  /** A full commit id to check out. */
  sha?: string;
  /** The folder inside the repository that holds the plugin (`git-subdir`), relative. */
  path?: string;
}

/**
 * Where a plugin of a marketplace is, as its `source` says: a folder of the marketplace
 * (absolute, inside it), a git repository, or something rein cannot use (npm, a bad entry), why.
 */
export type PluginSource =
  | { kind: "folder"; path: string }
  | { kind: "git"; git: GitPlace }
  | { kind: "unsupported"; why: string };

/** One plugin a marketplace lists. */
export interface MarketplaceEntry {
  name: string;
  source: PluginSource;
  version?: string;
  description?: string;
}

/** A marketplace's list as rein uses it. */
export interface Marketplace {
  name: string;
  plugins: MarketplaceEntry[];
}

/** A marketplace.json read, or why it cannot be used: one line naming the file. */
export type ParsedMarketplace = { ok: true; marketplace: Marketplace } | {
  ok: false;
  message: string;
};

/**
 * Parse the marketplace list at `path` (`<root>/.claude-plugin/marketplace.json`) whose text is
 * `text`, as Claude Code documents it: `name`, `owner`, `metadata.pluginRoot` and `plugins`, each
 * `{name, source, version?, description?}`. A `source` is a path in the marketplace (`"./x"`, or
 * a bare name under `metadata.pluginRoot`), `{source: "github", repo}`, `{source: "url", url}`,
 * `{source: "git-subdir", url, path}` (each with an optional `ref` and `sha`), or `npm`, which
 * rein does not install. A path that leads out of `root` (`../..`, an absolute path), a bad git
 * URL, ref or commit makes that entry unusable, with why; an entry without a usable name is left
 * out. Pure; never throws.
 */
export function parseMarketplace(path: string, text: string, root: string): ParsedMarketplace {
  const fail = (why: string): ParsedMarketplace => ({
    ok: false,
    message: `Cannot use the marketplace list "${path}": ${why}`,
  });
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return fail(`it is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(json)) return fail("it is not a JSON object");
  const name = json["name"];
  if (typeof name !== "string") return fail(`it has no "name" text`);
  const list = json["plugins"];
  if (!Array.isArray(list)) return fail(`its "plugins" is not a list`);
  const metadata = json["metadata"];
  const pluginRoot = isRecord(metadata) && typeof metadata["pluginRoot"] === "string"
    ? metadata["pluginRoot"]
    : undefined;
  const plugins: MarketplaceEntry[] = [];
  for (const item of list) {
    if (!isRecord(item) || typeof item["name"] !== "string") continue;
    if (badPluginName(item["name"]) !== undefined) continue;
    const entry: MarketplaceEntry = {
      name: item["name"],
      source: pluginSource(item["source"], root, pluginRoot),
    };
    if (typeof item["version"] === "string") entry.version = item["version"];
    if (typeof item["description"] === "string") entry.description = item["description"];
    plugins.push(entry);
  }
  return { ok: true, marketplace: { name, plugins } };
}

/** A plugin entry's `source`, resolved against the marketplace's folder `root`. Pure. */
function pluginSource(value: unknown, root: string, pluginRoot: string | undefined): PluginSource {
  if (typeof value === "string") {
    const base = pluginRoot !== undefined && !value.startsWith("./") ? pluginRoot : ".";
    return folderIn(root, base, value);
  }
  if (!isRecord(value)) {
    return { kind: "unsupported", why: 'its "source" is neither a path nor an object' };
  }
  const kind = value["source"];
  if (kind === "npm") {
    return { kind: "unsupported", why: "it comes from npm, which rein does not install" };
  }
  if (kind === "github" || kind === "url" || kind === "git-subdir") {
    const place = gitPlace(value, kind === "github" ? "repo" : "url");
    if (typeof place === "string") return { kind: "unsupported", why: place };
    if (kind === "git-subdir") {
      const sub = value["path"];
      if (typeof sub !== "string") {
        return { kind: "unsupported", why: 'its git-subdir source has no "path" text' };
      }
      const relative = normalize(sub.replace(/^\.\//, ""));
      if (isAbsolute(sub) || relative === ".." || relative.startsWith("../")) {
        return {
          kind: "unsupported",
          why: `its git-subdir path ${JSON.stringify(sub)} leads out of the repository`,
        };
      }
      place.path = relative;
    }
    return { kind: "git", git: place };
  }
  return {
    kind: "unsupported",
    why: `its source kind ${JSON.stringify(kind ?? null)} is not one rein knows`,
  };
}

/** `path` (relative to `base`, relative to `root`) as a folder inside `root`, or why not. */
function folderIn(root: string, base: string, path: string): PluginSource {
  if (isAbsolute(path) || isAbsolute(base)) {
    return {
      kind: "unsupported",
      why: `its source ${JSON.stringify(path)} is an absolute path, not one in the marketplace`,
    };
  }
  const folder = resolve(root, base, path);
  if (!isInside(resolve(root), folder)) {
    return {
      kind: "unsupported",
      why: `its source ${JSON.stringify(path)} leads out of the marketplace's folder`,
    };
  }
  return { kind: "folder", path: folder };
}

/**
 * The git place of a `github` (`repo: "owner/name"`), `url` or `git-subdir` source, or of a
 * marketplace's `git` or `github` source, or why it cannot be used. Pure.
 */
export function gitPlace(value: Record<string, unknown>, key: "repo" | "url"): GitPlace | string {
  const given = value[key];
  if (typeof given !== "string") return `it has no "${key}" text`;
  const url = key === "repo" || GITHUB_REPO.test(given) ? githubUrl(given) : given;
  if (url === undefined) return `its repo ${JSON.stringify(given)} is not "owner/name"`;
  const bad = badGitUrl(url);
  if (bad !== undefined) return bad;
  const place: GitPlace = { url };
  const ref = value["ref"];
  if (ref !== undefined) {
    if (typeof ref !== "string" || !GIT_REF.test(ref) || ref.includes("..")) {
      return `its ref ${JSON.stringify(ref)} is not a branch or tag name`;
    }
    place.ref = ref;
  }
  const sha = value["sha"];
  if (sha !== undefined) {
    if (typeof sha !== "string" || !/^[0-9a-f]{40}$/.test(sha)) {
      return `its sha ${JSON.stringify(sha)} is not a full commit id (40 hex digits)`;
    }
    place.sha = sha;
  }
  return place;
}

const GITHUB_REPO = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*\/[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;
/** A branch or tag as rein passes it to git: never an option, never odd characters. */
const GIT_REF = /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/;

function githubUrl(repo: string): string | undefined {
  if (!GITHUB_REPO.test(repo) || repo.split("/").some((part) => /^\.+$/.test(part))) {
    return undefined;
  }
  return `https://github.com/${repo.replace(/\.git$/, "")}.git`;
}

/**
 * Why `url` may not be handed to `git clone`, or undefined: it must be `https://`, `http://`,
 * `ssh://`, `git://` or `file://`, an scp-like `user@host:path`, or an absolute local path; it
 * may not begin with `-` (an option, `--upload-pack=…`), use a remote helper (`ext::…`), or hold
 * white space or control characters. Pure.
 */
export function badGitUrl(url: string): string | undefined {
  const quoted = JSON.stringify(url);
  if (url.startsWith("-")) return `its git URL ${quoted} begins with "-"`;
  if (/[\s\p{C}]/u.test(url)) {
    return `its git URL ${quoted} holds white space or a control character`;
  }
  if (url.includes("::")) return `its git URL ${quoted} names a git remote helper`;
  if (/^(https?|ssh|git|file):\/\/[^-]/.test(url)) return undefined;
  if (/^[A-Za-z0-9_.]+@[A-Za-z0-9.-]+:[^-]/.test(url)) return undefined;
  if (url.startsWith("/")) return undefined;
  return `its git URL ${quoted} is not an https, ssh, git or file URL or an absolute path`;
}

/** Where a marketplace is, as a settings `source` or Claude Code's list says. */
export type MarketplaceSource =
  | { kind: "folder"; root: string; file: string }
  | { kind: "git"; git: GitPlace }
  | { kind: "unsupported"; why: string };

/**
 * A marketplace's `source` as `extraKnownMarketplaces` gives it: `{source: "directory", path}`
 * (its folder), `{source: "file", path}` (its marketplace.json), `{source: "git", url}` or
 * `{source: "github", repo}` (with an optional `ref` and `sha`); a relative path is taken from
 * `base` (the workspace), `~/` from `home`. `url` (a marketplace.json over HTTP) and others are
 * not used: rein reaches a marketplace only on disk or with git. Pure.
 */
export function marketplaceSource(
  value: unknown,
  base: string,
  home: string | undefined,
): MarketplaceSource {
  if (!isRecord(value)) return { kind: "unsupported", why: 'its "source" is not an object' };
  const kind = value["source"];
  if (kind === "directory" || kind === "file") {
    const path = value["path"];
    if (typeof path !== "string" || path === "") {
      return { kind: "unsupported", why: `its ${kind} source has no "path" text` };
    }
    const absolute = path.startsWith("~/") && home !== undefined
      ? join(home, path.slice(2))
      : resolve(base, path);
    if (kind === "directory") {
      return { kind: "folder", root: absolute, file: join(absolute, MARKETPLACE_PATH) };
    }
    const folder = dirname(absolute);
    const root = folder.endsWith("/.claude-plugin") ? dirname(folder) : folder;
    return { kind: "folder", root, file: absolute };
  }
  if (kind === "git" || kind === "github") {
    const place = gitPlace(value, kind === "github" ? "repo" : "url");
    return typeof place === "string"
      ? { kind: "unsupported", why: place }
      : { kind: "git", git: place };
  }
  if (kind === "url") {
    return {
      kind: "unsupported",
      why: "it is a marketplace.json over HTTP; rein reads marketplaces from a folder or with git",
    };
  }
  return {
    kind: "unsupported",
    why: `its source kind ${JSON.stringify(kind ?? null)} is not one rein knows`,
  };
}

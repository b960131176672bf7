import type { Mechanism } from "../mechanism.ts";
import { describeHead, GIT_HEAD_SOURCE, readGitHead } from "./git_branch.ts";

/**
 * The environment beyond what `session.started` records: the git branch, read when a session
 * starts or resumes (recorded with it), shown right after the environment block of the system
 * prompt. Sessions recorded without it show nothing, so their requests replay unchanged.
 */
export const environmentMechanism: Mechanism = {
  name: "environment",
  readFiles: (place) => readGitHead(place.workspace),
  sections(scope) {
    const head = scope.state.sessions.byId[scope.session]?.files
      .find((file) => file.source === GIT_HEAD_SOURCE);
    const described = head === undefined ? undefined : describeHead(head.text);
    return described === undefined ? [] : [{ id: "git", stability: 0, text: `Git: ${described}` }];
  },
};

// Collaborators and permission levels through @octokit/rest.
import { describe, expect, it } from "vitest";
import { legacyPermission, permissionsOf, roleName } from "../../../durable-objects/twins/github/store/collaborators";
import { failure, sandboxWith, smallWorld, stateOf } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("listing and checking collaborators", () => {
  it("lists the repository's collaborators with their role, and checks one (204) or not (404)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const list = await octokit.repos.listCollaborators(repo);
    expect(list.data.map((c) => [c.login, c.role_name])).toEqual([
      ["alice", "write"],
      ["bob", "write"],
      ["octo", "admin"],
    ]);
    expect(list.data[0].permissions).toEqual({ pull: true, triage: true, push: true, maintain: false, admin: false });
    expect((await octokit.repos.checkCollaborator({ ...repo, username: "alice" })).status).toBe(204);
    expect((await failure(octokit.repos.checkCollaborator({ ...repo, username: "mallory" }))).status).toBe(404);
    const admins = await octokit.repos.listCollaborators({ ...repo, permission: "admin" });
    expect(admins.data.map((c) => c.login)).toEqual(["octo"]);
  });

  it("gives a user's own repository its owner as an admin collaborator", async () => {
    const { octokit } = await sandboxWith(smallWorld({ owner: "bob", collaborators: ["alice"] }));
    const list = await octokit.repos.listCollaborators({ owner: "bob", repo: "api" });
    expect(list.data.map((c) => [c.login, c.role_name])).toEqual([
      ["bob", "admin"],
      ["alice", "write"],
      ["octo", "admin"],
    ]);
  });
});

describe("permission levels", () => {
  it("answers a collaborator's legacy permission and role name", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const alice = await octokit.repos.getCollaboratorPermissionLevel({ ...repo, username: "alice" });
    expect(alice.data).toMatchObject({ permission: "write", role_name: "write", user: { login: "alice" } });
    const octo = await octokit.repos.getCollaboratorPermissionLevel({ ...repo, username: "octo" });
    expect(octo.data).toMatchObject({ permission: "admin", role_name: "admin" });
    // Anyone may read a public repository.
    const outsider = await octokit.repos.getCollaboratorPermissionLevel({ ...repo, username: "mallory" });
    expect(outsider.data.permission).toBe("read");
    expect((await failure(octokit.repos.getCollaboratorPermissionLevel({ ...repo, username: "ghost" }))).status).toBe(404);
  });

  it("maps roles as GitHub documents: maintain reads as write, triage as read", () => {
    expect(legacyPermission("maintain")).toBe("write");
    expect(legacyPermission("triage")).toBe("read");
    expect(legacyPermission(undefined)).toBe("none");
    expect(roleName("pull")).toBe("read");
    expect(permissionsOf("triage")).toEqual({ pull: true, triage: true, push: false, maintain: false, admin: false });
  });
});

describe("adding and removing collaborators", () => {
  it("invites someone new (201 with the invitation); they are not a collaborator until they accept", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const added = await octokit.repos.addCollaborator({ ...repo, username: "mallory", permission: "triage" });
    expect(added.status).toBe(201);
    expect(added.data).toMatchObject({ invitee: { login: "mallory" }, inviter: { login: "octo" }, permissions: "triage" });
    expect((await failure(octokit.repos.checkCollaborator({ ...repo, username: "mallory" }))).status).toBe(404);
    const pending = await octokit.repos.listInvitations(repo);
    expect(pending.data.map((i) => i.invitee?.login)).toEqual(["mallory"]);
    const invitationId = added.data?.id ?? 0;
    const updated = await octokit.repos.updateInvitation({ ...repo, invitation_id: invitationId, permissions: "write" });
    expect(updated.data.permissions).toBe("write");
    expect((await octokit.repos.deleteInvitation({ ...repo, invitation_id: invitationId })).status).toBe(204);
    expect((await octokit.repos.listInvitations(repo)).data).toEqual([]);
  });

  it("changes an existing collaborator's role with a 204", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const changed = await octokit.repos.addCollaborator({ ...repo, username: "alice", permission: "maintain" });
    expect(changed.status).toBe(204);
    const level = await octokit.repos.getCollaboratorPermissionLevel({ ...repo, username: "alice" });
    expect(level.data).toMatchObject({ permission: "write", role_name: "maintain" });
    const bad = await failure(octokit.repos.addCollaborator({ ...repo, username: "alice", permission: "overlord" }));
    expect(bad.status).toBe(422);
    expect((await failure(octokit.repos.addCollaborator({ ...repo, username: "ghost" }))).status).toBe(404);
  });

  it("removes a collaborator (204), unassigning them from the repository's issues", async () => {
    const { sandbox, octokit } = await sandboxWith(smallWorld());
    expect((await octokit.issues.get({ ...repo, issue_number: 1 })).data.assignees?.map((a) => a.login)).toEqual(["bob"]);
    expect((await octokit.repos.removeCollaborator({ ...repo, username: "bob" })).status).toBe(204);
    expect((await failure(octokit.repos.checkCollaborator({ ...repo, username: "bob" }))).status).toBe(404);
    expect((await octokit.issues.get({ ...repo, issue_number: 1 })).data.assignees).toEqual([]);
    const state = await stateOf<{ repositories: { collaborators: string[] }[] }>(sandbox);
    expect(state.repositories[0].collaborators).toEqual(["alice"]);
  });
});

// actions.downloadJobLogsForWorkflowRun through @octokit/rest: GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs.
// GitHub's reference (docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-run):
// "Gets a redirect URL to download a plain text file of logs for a workflow job ... Look for
// `Location:` in the response header to find the URL for the download"; it answers 302. An
// unknown job is GitHub's basic-error 404 (declared in the twin's fidelity.ts: the description lists
// only the 302).
import { describe, expect, it } from "vitest";
import { ciWorld, FLAKY_LOG } from "./ci-world";
import { failure, sandboxWith } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

type Octokit = Awaited<ReturnType<typeof sandboxWith>>["octokit"];

/** The log download's 302 without following it: its Location. */
async function logLocation(octokit: Octokit, job_id: number): Promise<string> {
  const res = await octokit.actions
    .downloadJobLogsForWorkflowRun({ ...repo, job_id, request: { redirect: "manual" } })
    .catch((e: { status: number; response: { headers: Record<string, string> } }) => ({ status: e.status, headers: e.response.headers }));
  expect(res.status).toBe(302);
  return res.headers.location as string;
}

describe("actions.downloadJobLogsForWorkflowRun", () => {
  it("answers 302 with a Location whose plain text is that job's log", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const failed = await logLocation(octokit, 602);
    expect(failed).toMatch(/^https?:\/\/.+\/repos\/acme\/api\/actions\/jobs\/602\/logs\/text$/);
    const text = await octokit.request(`GET ${failed}`);
    expect(text.status).toBe(200);
    expect(text.headers["content-type"]).toMatch(/^text\/plain/);
    expect(text.data).toBe(FLAKY_LOG);
    // Each job has its own log, another run's too.
    expect((await octokit.request(`GET ${await logLocation(octokit, 601)}`)).data).toBe("Compiled\n");
    expect((await octokit.request(`GET ${await logLocation(octokit, 501)}`)).data).toBe("All tests passed\n");
  });

  it("follows the redirect to the text when the client follows redirects, as fetch does by default", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const res = await octokit.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id: 602 });
    expect(res.status).toBe(200);
    expect(res.data).toBe(FLAKY_LOG);
  });

  it("serves a re-run attempt's job its own log, and keeps the first attempt's", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    await octokit.actions.reRunWorkflowFailedJobs({ ...repo, run_id: 600 });
    const jobs = (await octokit.actions.listJobsForWorkflowRun({ ...repo, run_id: 600 })).data.jobs;
    const retried = jobs.find((j) => j.name === "test");
    expect(retried).toMatchObject({ run_attempt: 2, conclusion: "success" });
    expect(retried?.id).not.toBe(602);
    const log = (await octokit.request(`GET ${await logLocation(octokit, Number(retried?.id))}`)).data;
    expect(log).toBe("test: attempt 2 concluded success\n");
    expect((await octokit.request(`GET ${await logLocation(octokit, 602)}`)).data).toBe(FLAKY_LOG);
  });

  it("answers GitHub's 404 for an unknown job and for an unknown repository", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const job = await failure(octokit.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id: 999999, request: { redirect: "manual" } }));
    expect(job.status).toBe(404);
    expect(job.response.data).toMatchObject({ message: "Not Found", documentation_url: expect.any(String) });
    const other = await failure(octokit.actions.downloadJobLogsForWorkflowRun({ owner: "acme", repo: "nope", job_id: 602 }));
    expect(other.status).toBe(404);
  });
});

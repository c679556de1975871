"""PyGithub (Debian's python3-github) against the GitHub twin: the calls a Python agent makes most.

Run by test/clients/python-clients.test.ts with POME_GITHUB_URL and POME_GITHUB_TOKEN set. Each step
prints one line; any exception fails the run with its traceback.
"""

import base64
import os
import sys

import github
from github import Github, GithubException

api_url = os.environ["POME_GITHUB_URL"]
token = os.environ["POME_GITHUB_TOKEN"]
gh = Github(base_url=api_url, login_or_token=token, per_page=2, retry=None)


def step(name, value):
    print(f"ok {name}: {value}")


me = gh.get_user()
step("viewer", me.login)

repo = gh.get_repo("acme/api")
step("repository", f"{repo.full_name} default={repo.default_branch}")

# per_page=2 makes PaginatedList follow the Link header across pages.
issues = list(repo.get_issues(state="all"))
assert len(issues) >= 1, "the seeded repository has issues"
step("issues across pages", len(issues))

issue = repo.create_issue(title="Python client smoke", body="Filed by PyGithub", labels=["bug"])
assert issue.title == "Python client smoke" and [l.name for l in issue.labels] == ["bug"]
step("created issue", issue.number)

comment = issue.create_comment("A comment from PyGithub")
assert comment.body == "A comment from PyGithub"
assert [c.id for c in issue.get_comments()] == [comment.id]
step("comment", comment.id)

issue.edit(state="closed")
assert repo.get_issue(issue.number).state == "closed"
step("closed", issue.number)

readme = repo.get_contents("README.md", ref=repo.default_branch)
step("contents", f"{readme.path} {readme.size} bytes")

created = repo.create_file("docs/python.md", "add a file from PyGithub", "hello from python\n", branch=repo.default_branch)
sha = created["content"].sha
fetched = repo.get_contents("docs/python.md")
assert base64.b64decode(fetched.content) == b"hello from python\n"
repo.update_file("docs/python.md", "update it", "hello again\n", sha, branch=repo.default_branch)
step("file written and updated", created["commit"].sha[:7])

branch = repo.get_branch(repo.default_branch)
repo.create_git_ref(f"refs/heads/py-smoke", branch.commit.sha)
repo.create_file("py.txt", "on a branch", "branch content\n", branch="py-smoke")
pull = repo.create_pull(title="From Python", body="", head="py-smoke", base=repo.default_branch)
assert [f.filename for f in pull.get_files()] == ["py.txt"]
step("pull request", pull.number)

found = gh.search_issues("Python client smoke", repo="acme/api")
assert found.totalCount >= 1
step("search", found.totalCount)

try:
    gh.get_repo("acme/no-such-repo")
    raise AssertionError("a missing repository must raise")
except GithubException as error:
    assert error.status == 404, error.status
    step("missing repository", error.status)

step("rate limit", gh.get_rate_limit().core.limit)
print(f"pygithub smoke passed (PyGithub {getattr(github, '__version__', 'from Debian')})")
sys.exit(0)

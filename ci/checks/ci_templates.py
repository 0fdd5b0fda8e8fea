"""Checks that the CI templates in ci/ do what the README says, beyond their schemas.

usage: ci_templates.py GITHUB_WORKFLOW GITLAB_JOB

- the GitHub workflow installs the release binary, checking its SHA-256 (the fast path), or
  builds webpolicy in release when no version is set; lints with `--format github` (inline
  annotations), uploads SARIF with github/codeql-action/upload-sarif and keeps a JUnit report
  of `simulate`; the SARIF upload has the security-events permission it needs;
- a macOS job builds the WebKit glue (`WebPolicyWebKit`) for macOS and both libraries for iOS;
- an audit job audits the app against its policy with `--format github`, uploads its SARIF
  under a category of its own (with the security-events permission) and keeps the HTML page;
- the GitLab job installs the release binary (or builds it) as the GitHub one does, and writes JUnit reports for lint and simulate and declares them as reports;
- a GitLab audit job declares the audit's code-quality and JUnit reports;
- on pull and merge requests both run ci/webpolicy-diff.sh against the base and post its
  Markdown (a comment and the job summary; an exposed artifact and a note).
"""
import sys

import yaml


def fail(message):
    print(f"ci_templates: {message}", file=sys.stderr)
    sys.exit(1)


def script_lines(job):
    """A job's script, with the nested lists a YAML anchor leaves (GitLab flattens them)."""
    lines = []
    for item in job["script"]:
        lines += script_lines({"script": item}) if isinstance(item, list) else [item]
    return lines


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    workflow = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    runs = "\n".join(step.get("run", "") for step in steps)
    uses = [step.get("uses", "") for step in steps]
    for needle in ["sha256sum -c", "releases/download/v$WEBPOLICY_VERSION", "swift build -c release", "webpolicy lint --format github --report sarif=webpolicy.sarif", "webpolicy simulate --format junit"]:
        if needle not in runs:
            fail(f"the GitHub workflow never runs '{needle}'")
    if not any(use.startswith("github/codeql-action/upload-sarif@") for use in uses):
        fail("the GitHub workflow does not upload SARIF")
    lint_job = workflow["jobs"]["webpolicy"]
    if lint_job.get("permissions", {}).get("security-events") != "write":
        fail("the SARIF upload needs 'security-events: write'")

    for needle in ["ci/webpolicy-diff.sh \"$BASE_SHA\"", "GITHUB_STEP_SUMMARY", "gh pr comment", "webpolicy-approved"]:
        if needle not in runs and not any(needle in str(step.get("if", "")) for step in steps):
            fail(f"the GitHub workflow's diff steps never use '{needle}'")
    if lint_job.get("permissions", {}).get("pull-requests") != "write":
        fail("the diff comment needs 'pull-requests: write'")
    if "labeled" not in workflow[True]["pull_request"].get("types", []):
        fail("adding the approval label must run the workflow again ('labeled' in the pull_request types)")

    audit = workflow["jobs"].get("audit")
    if not audit:
        fail("the GitHub workflow has no audit job")
    audit_runs = "\n".join(step.get("run", "") for step in audit["steps"])
    for needle in ["webpolicy audit --policy \"$WEBPOLICY_POLICY\" --format github", "--report sarif=webpolicy-audit.sarif", "--report html=webpolicy-audit.html", "sha256sum -c"]:
        if needle not in audit_runs:
            fail(f"the audit job never runs '{needle}'")
    uploads = [step for step in audit["steps"] if step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    if not uploads or uploads[0]["with"].get("category") != "webpolicy-audit" or uploads[0]["with"].get("sarif_file") != "webpolicy-audit.sarif":
        fail("the audit job does not upload its SARIF under the category webpolicy-audit")
    if audit.get("permissions", {}).get("security-events") != "write":
        fail("the audit's SARIF upload needs 'security-events: write'")
    for trigger in ["pull_request", "push"]:
        if "**/*.swift" not in workflow[True][trigger].get("paths", []):
            fail(f"a {trigger} that changes only the app's Swift does not run the audit")

    apple = [job for job in workflow["jobs"].values() if str(job.get("runs-on", "")).startswith("macos")]
    if not apple:
        fail("the GitHub workflow has no macOS job for the WebKit glue")
    apple_runs = "\n".join(step.get("run", "") for job in apple for step in job["steps"])
    for needle in ["swift build --target WebPolicyWebKit", "generic/platform=iOS", "WebPolicyRuntime WebPolicyWebKit"]:
        if needle not in apple_runs:
            fail(f"the macOS job never runs '{needle}'")

    job = yaml.safe_load(open(sys.argv[2], encoding="utf-8"))["webpolicy"]
    script = "\n".join(script_lines(job))
    for needle in ["sha256sum -c", "releases/download/v$WEBPOLICY_VERSION", "swift build -c release", "--report codequality=gl-code-quality.json", "webpolicy lint --format junit", "webpolicy simulate --format junit"]:
        if needle not in script:
            fail(f"the GitLab job never runs '{needle}'")
    reports = job["artifacts"]["reports"]["junit"]
    if sorted(reports) != ["webpolicy-lint.xml", "webpolicy-simulate.xml"]:
        fail(f"the GitLab job declares JUnit reports {reports}")
    if job["artifacts"]["reports"].get("codequality") != "gl-code-quality.json":
        fail("the GitLab job does not declare its code-quality report")
    gitlab_audit = yaml.safe_load(open(sys.argv[2], encoding="utf-8"))["webpolicy-audit"]
    audit_script = "\n".join(script_lines(gitlab_audit))
    for needle in ["webpolicy audit --policy \"$WEBPOLICY_POLICY\" --format junit", "--report codequality=gl-audit-code-quality.json", "sha256sum -c"]:
        if needle not in audit_script:
            fail(f"the GitLab audit job never runs '{needle}'")
    if gitlab_audit["artifacts"]["reports"] != {"junit": "webpolicy-audit.xml", "codequality": "gl-audit-code-quality.json"}:
        fail(f"the GitLab audit job declares {gitlab_audit['artifacts']['reports']}")
    diff = yaml.safe_load(open(sys.argv[2], encoding="utf-8"))["webpolicy-diff"]
    diff_script = "\n".join(script_lines(diff))
    for needle in ["ci/webpolicy-diff.sh \"$CI_MERGE_REQUEST_DIFF_BASE_SHA\"", "merge_requests/$CI_MERGE_REQUEST_IID/notes"]:
        if needle not in diff_script:
            fail(f"the GitLab diff job never uses '{needle}'")
    if "webpolicy-diff.md" not in diff["artifacts"]["paths"]:
        fail("the GitLab diff job does not keep webpolicy-diff.md")
    print("ci templates: GitHub workflow and GitLab job do what the README says")


if __name__ == "__main__":
    main()

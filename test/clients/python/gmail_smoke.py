"""google-api-python-client (Debian's python3-googleapi) against the Gmail twin.

Run by test/clients/python-clients.test.ts with POME_ORIGIN and POME_GMAIL_TOKEN set. Debian's 1.7.12
fetches Gmail's discovery document from googleapis.com when asked to `build("gmail", "v1")`; here it
is built from the copy kept in test/fixtures/service-specs/gmail/ (see the README there) with its
rootUrl pointed at the platform, which is what `build(..., discoveryServiceUrl=...)` would do.
"""

import base64
import io
import json
import os
import sys

import googleapiclient
from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build_from_document
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaInMemoryUpload, MediaIoBaseUpload

HERE = os.path.dirname(os.path.abspath(__file__))
DOC = os.path.join(HERE, "..", "..", "fixtures", "service-specs", "gmail", "gmail.v1.json")

origin = os.environ["POME_ORIGIN"].rstrip("/")
token = os.environ["POME_GMAIL_TOKEN"]

with open(DOC, encoding="utf8") as f:
    document = json.load(f)
document["rootUrl"] = f"{origin}/"
gmail = build_from_document(document, credentials=Credentials(token))
users = gmail.users()


def step(name, value):
    print(f"ok {name}: {value}")


def b64url(data):
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


profile = users.getProfile(userId="me").execute()
assert "@" in profile["emailAddress"] and int(profile["historyId"]) > 0, profile
step("profile", profile["emailAddress"])

unread = users.messages().list(userId="me", q="is:unread", maxResults=2).execute()
assert len(unread["messages"]) == 2, unread
assert set(unread["messages"][0]) == {"id", "threadId"}, unread["messages"][0]
assert "nextPageToken" in unread and isinstance(unread["resultSizeEstimate"], int), unread
page_two = users.messages().list(userId="me", q="is:unread", maxResults=2, pageToken=unread["nextPageToken"]).execute()
assert not {m["id"] for m in page_two.get("messages", [])} & {m["id"] for m in unread["messages"]}
step("list is:unread across pages", len(unread["messages"]) + len(page_two.get("messages", [])))

first_id = unread["messages"][0]["id"]
full = users.messages().get(userId="me", id=first_id, format="full").execute()
headers = {h["name"].lower(): h["value"] for h in full["payload"]["headers"]}
assert full["id"] == first_id and "UNREAD" in full["labelIds"], full["labelIds"]
assert "subject" in headers and "from" in headers, headers
assert isinstance(full["snippet"], str) and int(full["internalDate"]) > 0 and "raw" not in full
step("get format=full", headers["subject"])

raw = users.messages().get(userId="me", id=first_id, format="raw").execute()
assert "payload" not in raw and raw["id"] == first_id
mime = unb64url(raw["raw"])
assert b"\r\n\r\n" in mime or b"\n\n" in mime, mime[:200]
assert headers["subject"].encode() in mime, mime[:400]
step("get format=raw", f"{len(mime)} bytes")

label = users.labels().create(
    userId="me", body={"name": "Python smoke", "labelListVisibility": "labelShow", "messageListVisibility": "show"}
).execute()
assert label["name"] == "Python smoke" and label["type"] == "user" and label["id"].startswith("Label_"), label
assert label["id"] in {l["id"] for l in users.labels().list(userId="me").execute()["labels"]}
step("label created", label["id"])

modified = users.messages().modify(
    userId="me", id=first_id, body={"addLabelIds": [label["id"]], "removeLabelIds": ["UNREAD"]}
).execute()
assert label["id"] in modified["labelIds"] and "UNREAD" not in modified["labelIds"], modified["labelIds"]
labelled = users.messages().list(userId="me", q='label:"Python smoke"').execute()
assert [m["id"] for m in labelled["messages"]] == [first_id], labelled
step("modified labels", ",".join(sorted(modified["labelIds"])))

message = "\r\n".join(
    ["To: lee@partner.test", "Subject: From Python", "Content-Type: text/plain; charset=UTF-8", "", "Sent by python3-googleapi."]
)
sent = users.messages().send(userId="me", body={"raw": b64url(message.encode())}).execute()
assert "SENT" in sent["labelIds"] and sent["threadId"], sent
back = users.messages().get(userId="me", id=sent["id"], format="metadata", metadataHeaders=["Subject"]).execute()
assert [h["value"] for h in back["payload"]["headers"] if h["name"] == "Subject"] == ["From Python"], back
found = users.messages().list(userId="me", q="subject:(From Python) in:sent").execute()
assert sent["id"] in [m["id"] for m in found["messages"]], found
step("sent raw", sent["id"])

# The client's own media upload (uploadType=multipart to the /upload/ path), as 1.7.12 writes it.
upload = "\r\n".join(["To: lee@partner.test", "Subject: Uploaded from Python", "", "Through the upload path."])
uploaded = users.messages().send(
    userId="me", body={}, media_body=MediaInMemoryUpload(upload.encode(), mimetype="message/rfc822")
).execute()
again = users.messages().get(userId="me", id=uploaded["id"], format="full").execute()
assert again["snippet"] == "Through the upload path.", again["snippet"]
step("sent by multipart upload", uploaded["id"])

# The client's own resumable upload (uploadType=resumable), as 1.7.12 makes it: the opening POST
# with the JSON metadata and X-Upload-Content-Type/-Length, then the media PUT to the Location in
# chunks (`Content-Range: bytes a-b/N`), each unfinished one answered 308 with `Range`.
long_body = "\r\n".join(f"Line {n:04d} of a long report, sent in chunks." for n in range(120))
resumable_message = "\r\n".join(
    ["To: lee@partner.test", "Subject: Resumable from Python", "Content-Type: text/plain; charset=UTF-8", "", long_body]
).encode()
assert len(resumable_message) > 5 * 1024, len(resumable_message)
media = MediaIoBaseUpload(io.BytesIO(resumable_message), mimetype="message/rfc822", chunksize=2048, resumable=True)
request = users.messages().send(userId="me", body={}, media_body=media)
progress, resumed = [], None
while resumed is None:
    status, resumed = request.next_chunk()
    if status:
        progress.append(status.resumable_progress)
assert progress == [2048, 4096], progress
assert request.resumable_uri.startswith(f"{origin}/upload/gmail/v1/users/me/messages/send?"), request.resumable_uri
assert "upload_id=" in request.resumable_uri, request.resumable_uri
assert "SENT" in resumed["labelIds"], resumed
kept = unb64url(users.messages().get(userId="me", id=resumed["id"], format="raw").execute()["raw"])
assert long_body.encode() in kept and b"Subject: Resumable from Python" in kept, kept[:300]
step("sent by resumable upload", f"{resumed['id']} in {len(progress) + 1} chunks")

# The same upload to messages.insert with its metadata (labelIds) in the opening call, in one chunk.
inserted = users.messages().insert(
    userId="me",
    body={"labelIds": ["INBOX", "UNREAD"]},
    media_body=MediaIoBaseUpload(io.BytesIO(upload.encode()), mimetype="message/rfc822", resumable=True),
).execute()
assert set(inserted["labelIds"]) == {"INBOX", "UNREAD"}, inserted
step("inserted by resumable upload", inserted["id"])

# Round-3 search operators: categories (tabs), a size bound, a {…} group (any of) and its negation.
def ids(q):
    found = users.messages().list(userId="me", q=q).execute()
    return {m["id"] for m in found.get("messages", [])}


promotions, updates = ids("category:promotions"), ids("category:updates")
assert len(promotions) == 1 and len(updates) == 1 and promotions != updates, (promotions, updates)
assert ids("{category:promotions category:updates}") == promotions | updates
assert not ids("in:inbox -{category:promotions category:updates}") & (promotions | updates)
assert ids("larger:5K") == {resumed["id"]}, ids("larger:5K")
assert resumed["id"] not in ids("smaller:5K") and first_id in ids("smaller:5K")
assert ids("larger:5K {subject:resumable subject:nothing-like-it}") == {resumed["id"]}
step("search category:, larger:/smaller:, {…}", ",".join(sorted(promotions | updates)))

# Settings: a signature on the primary send-as address (patch), a forwarding address and
# auto-forwarding to it (an address in the mailbox's own domain is accepted at once).
me = profile["emailAddress"]
signed = users.settings().sendAs().patch(
    userId="me", sendAsEmail=me, body={"signature": "<div>-- Python <b>Support</b></div>"}
).execute()
assert signed["sendAsEmail"] == me and signed["signature"] == "<div>-- Python <b>Support</b></div>", signed
assert signed["isPrimary"] is True, signed
domain = me.split("@", 1)[1]
forward_to = f"archive@{domain}"
address = users.settings().forwardingAddresses().create(userId="me", body={"forwardingEmail": forward_to}).execute()
assert address == {"forwardingEmail": forward_to, "verificationStatus": "accepted"}, address
forwarding = users.settings().updateAutoForwarding(
    userId="me", body={"enabled": True, "emailAddress": forward_to, "disposition": "archive"}
).execute()
assert forwarding == {"enabled": True, "emailAddress": forward_to, "disposition": "archive"}, forwarding
assert users.settings().getAutoForwarding(userId="me").execute() == forwarding
try:
    users.settings().updateAutoForwarding(userId="me", body={"enabled": True, "emailAddress": "nobody@else.test"}).execute()
    raise AssertionError("auto-forwarding to an unknown address must be refused")
except HttpError as error:
    assert error.resp.status == 400, error.resp.status
step("settings: signature, forwarding, auto-forwarding", forward_to)

# The client's own batch (multipart/mixed, Content-ID <uuid+n>), where 1.7.12 sends it: the
# document's rootUrl + batchPath ("batch"). Gmail's guide documents /batch/gmail/v1; both are served.
answers = {}


def collect(request_id, response, exception):
    answers[request_id] = exception or response


batch = gmail.new_batch_http_request(callback=collect)
assert batch._batch_uri == f"{origin}/batch", batch._batch_uri
batch.add(users.messages().get(userId="me", id=first_id, format="minimal"), request_id="one")
batch.add(users.labels().get(userId="me", id=label["id"]), request_id="two")
batch.add(users.messages().get(userId="me", id="00000000deadbeef"), request_id="three")
batch.execute()
assert answers["one"]["id"] == first_id and "payload" not in answers["one"], answers["one"]
assert answers["two"]["name"] == "Python smoke", answers["two"]
assert isinstance(answers["three"], HttpError) and answers["three"].resp.status == 404, answers["three"]
step("batch", ",".join(f"{k}={'error' if isinstance(v, HttpError) else 'ok'}" for k, v in sorted(answers.items())))

try:
    users.messages().get(userId="me", id="00000000deadbeef").execute()
    raise AssertionError("a missing message must raise")
except HttpError as error:
    assert error.resp.status == 404, error.resp.status
    body = json.loads(error.content.decode("utf8"))["error"]
    assert body["code"] == 404 and body["status"] == "NOT_FOUND" and body["message"], body
    assert body["errors"][0]["reason"] == "notFound", body
    step("missing message", f"{body['code']} {body['status']}")

print(f"google-api-python-client smoke passed ({googleapiclient.__version__})")
sys.exit(0)

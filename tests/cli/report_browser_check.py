#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Loads exported HTML reports in headless Chromium with the network off.

For each scenario: writes its report with hsdp-inspect, opens it through the
DevTools protocol (--remote-debugging-pipe, standard library only) and fails
on any console error, uncaught exception, failed request or request for
anything but the file itself and data: URIs, on a picture that did not
decode, or on a blank screenshot (desktop 1280 px and phone 400 px wide).

usage: report_browser_check.py HSDP_INSPECT OUT_DIR SCENARIO[:MODE] ...
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
import base64


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("report_browser_check: no chromium; run scripts/bootstrap (it installs chromium)")


class DevTools:
    """One Chromium over a pipe: commands out on fd 3, replies and events back on fd 4."""

    def __init__(self, chromium, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-extensions", "--disable-default-apps",
                "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND",
                "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]

        def wire():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=wire,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, timeout=60):
        deadline = time.time() + timeout
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._read_message(deadline)
            self.events.append(event)
            if event.get("method") == method:
                return event

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def not_blank(png):
    """A screenshot with something on it: its pixels are not one colour."""
    pos, data = 8, b""
    while pos < len(png):
        length = int.from_bytes(png[pos:pos + 4], "big")
        kind = png[pos + 4:pos + 8]
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(data)
    return len(set(raw)) > 64 and len(png) > 20000


def problems_of(events, url):
    problems = []
    for e in events:
        method, p = e.get("method"), e.get("params", {})
        if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            problems.append("console error: " + json.dumps(p.get("args"))[:200])
        elif method == "Runtime.exceptionThrown":
            problems.append("exception: " + json.dumps(p.get("exceptionDetails"))[:200])
        elif method == "Log.entryAdded" and p["entry"].get("level") == "error":
            problems.append("log error: " + p["entry"].get("text", "")[:200])
        elif method == "Network.loadingFailed":
            problems.append("failed request: " + p.get("errorText", ""))
        elif method == "Network.requestWillBeSent":
            target = p["request"]["url"]
            if target != url and not target.startswith("data:"):
                problems.append("request for " + target[:200])
    return problems


def check(devtools, path, shots):
    url = "file://" + os.path.abspath(path)
    target = devtools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = devtools.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Runtime", "Log", "Network", "Page"):
        devtools.call(domain + ".enable", session=session)
    devtools.events.clear()
    devtools.call("Page.navigate", {"url": url}, session=session)
    devtools.wait_for("Page.loadEventFired")
    images = devtools.call("Runtime.evaluate", {
        "expression": "JSON.stringify([document.images.length, Array.from(document.images)"
                      ".every(i => i.complete && i.naturalWidth > 0), document.title])",
        "returnByValue": True}, session=session)["result"]["value"]
    count, decoded, title = json.loads(images)
    problems = []
    if not decoded:
        problems.append("a picture did not decode")
    if not title:
        problems.append("no title")
    for width, height, name in ((1280, 2400, "desktop"), (400, 1600, "phone")):
        devtools.call("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
                      session=session)
        shot = devtools.call("Page.captureScreenshot", {"format": "png"}, session=session)
        png = base64.b64decode(shot["data"])
        out = os.path.splitext(path)[0] + f"-{name}.png"
        with open(out, "wb") as f:
            f.write(png)
        shots.append(out)
        if not not_blank(png):
            problems.append(f"the {name} screenshot is blank")
    problems = problems_of(devtools.events, url) + problems  # also what the screenshots loaded
    devtools.call("Target.closeTarget", {"targetId": target})
    return count, problems


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    inspect, out_dir, scenarios = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    chromium = find_chromium()
    failed = False
    with tempfile.TemporaryDirectory() as profile:
        devtools = DevTools(chromium, profile)
        try:
            for item in scenarios:
                scenario, _, mode = item.partition(":")
                html = os.path.join(out_dir, os.path.splitext(os.path.basename(scenario))[0] + ".html")
                args = [inspect, "report", scenario, "-o", html]
                if mode:
                    args += ["--run", "--mode", mode]
                written = subprocess.run(args, capture_output=True, text=True)
                if written.returncode not in (0, 1):
                    print(f"FAIL {scenario}: hsdp-inspect report exit {written.returncode}: {written.stderr}")
                    failed = True
                    continue
                shots = []
                count, problems = check(devtools, html, shots)
                for p in problems:
                    print(f"FAIL {html}: {p}")
                failed |= bool(problems)
                print(f"{'ok' if not problems else 'FAIL'} {html}: {count} pictures, screenshots "
                      + ", ".join(shots))
        finally:
            devtools.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A real MCP client (the `mcp` PyPI package; mcp_session.py's standard-library client where PyPI
cannot be reached) drives `hybrid-run mcp` over stdio.

Run under Xvfb with the client's own Python (`make mcp-test` makes .build-py/mcp, a venv with `mcp`):
    xvfb-run -a .build-py/mcp/bin/python -m unittest discover -s Tests/mcp -v
HYBRID_RUN names the binary (default .build/debug/hybrid-run). The fixture app comes from a loopback
HTTP server; every wait is bounded; the server and its web processes must be gone at the end.
"""
import asyncio
import base64
import functools
import http.server
import json
import os
import subprocess
import threading
import time
import unittest
import uuid

import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_session import CLIENT, open_session  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HYBRID_RUN = os.path.abspath(os.environ.get("HYBRID_RUN", os.path.join(ROOT, ".build", "debug", "hybrid-run")))
FIXTURES = os.path.join(ROOT, "pages", "fixtures", "mcp")
WAIT = 60  # seconds for a whole scenario, generous for a loaded CI machine
TOOLS = ["open", "back", "forward", "reload", "close_page", "snapshot", "click", "type", "press", "select", "hover",
         "evaluate", "screenshot", "console", "events", "wait_for", "bridge_call", "native_mock", "native_calls"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def web_processes(token):
    """PIDs of WebKit web processes started by the server with this token in its environment (other
    runs on the machine have their own)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/comm") as comm:
                if comm.read().strip() != "WebKitWebProces":
                    continue
            with open(f"/proc/{entry}/environ", "rb") as environ:
                if f"HYBRID_MCP_TEST={token}".encode() in environ.read().split(b"\0"):
                    found.add(int(entry))
        except OSError:
            pass
    return found


def text_of(result):
    return "\n".join(item.text for item in result.content if item.type == "text")


def ref_of(outline, role, name):
    """The ref of the first outline line with this role and name (`e3 button "Greet" …`)."""
    for line in outline.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] == role and parts[2].startswith(json.dumps(name)):
            return parts[0]
    raise AssertionError(f"no {role} {name!r} in:\n{outline}")


class McpTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        print(f"MCP client: {'the mcp package' if CLIENT == 'mcp' else 'the standard-library client (no mcp package)'}", file=sys.stderr)
        handler = functools.partial(QuietHandler, directory=FIXTURES)
        cls.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=cls.http.serve_forever, daemon=True).start()
        cls.base = f"http://127.0.0.1:{cls.http.server_address[1]}/"

    @classmethod
    def tearDownClass(cls):
        cls.http.shutdown()
        cls.http.server_close()

    def run_session(self, scenario, *args):
        token = uuid.uuid4().hex

        async def main():
            async with open_session(HYBRID_RUN, ["mcp", *args], dict(os.environ, HYBRID_MCP_TEST=token)) as session:
                await scenario(session)
                # While a page is open its web process is there to be found (the check below means something).
                await session.call_tool("open", {"url": "about:blank"})
                self.assertTrue(web_processes(token), "the server's web processes are not found")

        asyncio.run(asyncio.wait_for(main(), WAIT))
        # The server ended when its stdin closed: none of its web processes may be left.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and web_processes(token):
            time.sleep(0.1)
        self.assertEqual(web_processes(token), set(), "web processes left behind")

    def test_agent_drives_the_fixture_app(self):
        async def scenario(session):
            tools = (await session.list_tools()).tools
            self.assertEqual([tool.name for tool in tools], TOOLS)
            for tool in tools:
                self.assertEqual(tool.inputSchema["type"], "object", tool.name)
                self.assertTrue(tool.description, tool.name)

            opened = await session.call_tool("open", {"url": self.base + "index.html"})
            self.assertFalse(opened.isError, text_of(opened))
            self.assertIn("index.html", text_of(opened))
            self.assertIn('title "MCP fixture"', text_of(opened))

            outline = text_of(await session.call_tool("snapshot", {}))
            self.assertIn('heading "Greeter" level=1', outline)
            self.assertNotIn("Invisible", outline)
            greet = ref_of(outline, "button", "Greet")
            name = ref_of(outline, "textbox", "Name your name") if '"Name your name"' in outline else ref_of(outline, "textbox", "Name")
            self.assertIn("disabled", next(line for line in outline.splitlines() if line.startswith(greet + " ")))

            # The mock answers the page's native call; native_calls shows the call and its outcome.
            mocked = await session.call_tool("native_mock", {"handler": "greeter.hello", "result": {"greeting": "hello, Ann"}})
            self.assertFalse(mocked.isError, text_of(mocked))

            typed = await session.call_tool("type", {"ref": name, "text": "Ann"})
            self.assertFalse(typed.isError, text_of(typed))
            outline = text_of(await session.call_tool("snapshot", {}))
            self.assertIn('value="Ann"', outline)
            greet = ref_of(outline, "button", "Greet")
            self.assertNotIn("disabled", next(line for line in outline.splitlines() if line.startswith(greet + " ")))

            clicked = await session.call_tool("click", {"ref": greet})
            self.assertFalse(clicked.isError, text_of(clicked))
            waited = await session.call_tool("wait_for", {"text": "Native says: hello, Ann", "timeout_ms": 10000})
            self.assertFalse(waited.isError, text_of(waited))

            calls = json.loads(text_of(await session.call_tool("native_calls", {})))
            self.assertEqual([(c["handler"], c["args"], c["result"]) for c in calls["calls"]],
                             [("greeter.hello", {"name": "Ann"}, {"greeting": "hello, Ann"})])
            self.assertEqual(json.loads(text_of(await session.call_tool("native_calls", {"since": calls["next_cursor"]})))["calls"], [])

            # Real input: the page saw trusted events (not element.click() from a script).
            seen = json.loads(text_of(await session.call_tool("evaluate", {"script": "window.seen"})))
            self.assertIn("click:true", seen)
            self.assertIn("input:true", seen)
            self.assertEqual(json.loads(text_of(await session.call_tool("evaluate", {"script": "1+1"}))), 2)
            failed = await session.call_tool("evaluate", {"script": "throw new Error('boom')"})
            self.assertTrue(failed.isError)
            self.assertIn("boom", text_of(failed))

            selected = await session.call_tool("select", {"selector": "#color", "values": ["Green"]})
            self.assertFalse(selected.isError, text_of(selected))
            pressed = await session.call_tool("press", {"key": "Tab"})
            self.assertFalse(pressed.isError, text_of(pressed))
            self.assertIn("input#agree", text_of(pressed))  # focus moved on from the <select>
            hovered = await session.call_tool("hover", {"ref": greet})
            self.assertFalse(hovered.isError, text_of(hovered))
            seen = json.loads(text_of(await session.call_tool("evaluate", {"script": "window.seen"})))
            self.assertIn("change:g", seen)
            self.assertIn("hover:true", seen)
            summed = await session.call_tool("bridge_call", {"handler": "page.sum", "data": {"a": 2, "b": 3}})
            self.assertEqual(json.loads(text_of(summed)), {"sum": 5})

            shot = await session.call_tool("screenshot", {})
            images = [item for item in shot.content if item.type == "image"]
            self.assertEqual(len(images), 1)
            self.assertEqual(images[0].mimeType, "image/png")
            self.assertEqual(base64.b64decode(images[0].data)[:8], b"\x89PNG\r\n\x1a\n")
            element = await session.call_tool("screenshot", {"ref": greet})
            self.assertFalse(element.isError, text_of(element))

            console = json.loads(text_of(await session.call_tool("console", {})))
            self.assertIn("greeting Ann", [m["text"] for m in console["messages"]])
            events = json.loads(text_of(await session.call_tool("events", {})))
            names = [e["event"] for e in events["events"]]
            self.assertIn("loadFinished", names)
            self.assertIn("nativeCall", names)

            # Errors an agent can act on; the session goes on after each.
            for tool, arguments, words in [
                ("click", {"ref": "e999"}, "unknown ref e999"),
                ("click", {"selector": "#nothing"}, "no element matches"),
                ("click", {"selector": "#covered"}, "is covered by"),
                ("type", {"ref": greet, "text": "x"}, "is not a text field"),
                ("wait_for", {"text": "never there", "timeout_ms": 200}, "did not appear"),
                ("bridge_call", {"handler": "page.nope"}, "NOT_FOUND"),
                ("fly", {}, "unknown tool"),
            ]:
                result = await session.call_tool(tool, arguments)
                self.assertTrue(result.isError, f"{tool} {arguments}: {text_of(result)}")
                self.assertIn(words, text_of(result))

            # A navigation voids the refs; back returns.
            link = ref_of(text_of(await session.call_tool("snapshot", {})), "link", "Next page")
            await session.call_tool("click", {"ref": link})
            await session.call_tool("wait_for", {"text": "Second page", "timeout_ms": 10000})
            stale = await session.call_tool("click", {"ref": link})
            self.assertTrue(stale.isError)
            self.assertIn("stale", text_of(stale))
            back = await session.call_tool("back", {})
            self.assertFalse(back.isError, text_of(back))
            self.assertIn("index.html", text_of(back))

            closed = await session.call_tool("close_page", {})
            self.assertIn("No page is open", text_of(closed))
            none = await session.call_tool("snapshot", {})
            self.assertTrue(none.isError)
            self.assertIn("call open", text_of(none))

        self.run_session(scenario)

    def test_starts_with_the_run_flags(self):
        handlers = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"mcp-handlers-{os.getpid()}.json")
        with open(handlers, "w") as file:
            json.dump({"greeter.hello": {"result": {"greeting": "from the file"}}}, file)

        async def scenario(session):
            outline = text_of(await session.call_tool("snapshot", {}))
            self.assertIn("Greeter", outline)
            await session.call_tool("type", {"selector": "#name", "text": "Bo", "submit": True})
            await session.call_tool("click", {"selector": "#greet"})
            waited = await session.call_tool("wait_for", {"text": "from the file", "timeout_ms": 10000})
            self.assertFalse(waited.isError, text_of(waited))
            seen = json.loads(text_of(await session.call_tool("evaluate", {"script": "window.seen"})))
            self.assertIn("enter:true", seen)

        try:
            self.run_session(scenario, "--url", self.base + "index.html", "--handlers", handlers, "--size", "800x600")
        finally:
            os.unlink(handlers)

    def test_refuses_flags_without_meaning(self):
        result = subprocess.run([HYBRID_RUN, "mcp", "--exit-after", "load"], capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 4)
        self.assertIn("--exit-after has no meaning for hybrid-run mcp", result.stderr)


if __name__ == "__main__":
    unittest.main()

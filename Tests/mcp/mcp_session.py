"""An MCP client session over stdio for the tests: the `mcp` PyPI package's `ClientSession` when it
is installed (`make mcp-client`), else a small client of the same protocol written on the standard
library, so the test still runs where PyPI cannot be reached.

The stand-in speaks MCP's stdio transport as the specification has it (JSON-RPC 2.0, one message a
line): `initialize`, `notifications/initialized`, `tools/list` and `tools/call`, with the answers as
objects shaped like the package's (`.tools`, `.content[i].type/.text/.data/.mimeType`, `.isError`).
"""
import asyncio
import contextlib
import json
from types import SimpleNamespace

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    CLIENT = "mcp"
except ImportError:  # no PyPI here: the standard-library client below
    CLIENT = "stdlib"

PROTOCOL_VERSION = "2025-06-18"


class StdlibSession:
    def __init__(self, process):
        self.process = process
        self.next_id = 1

    async def request(self, method, params=None):
        identifier = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": identifier, "method": method}
        if params is not None:
            message["params"] = params
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        await self.process.stdin.drain()
        while True:
            line = await self.process.stdout.readline()
            if not line:
                raise ConnectionError(f"the server ended before answering {method}")
            answer = json.loads(line)
            if answer.get("id") != identifier:
                continue  # a notification or a request of the server's: not asked for here
            if "error" in answer:
                raise RuntimeError(f"{method}: {answer['error']}")
            return answer["result"]

    async def initialize(self):
        result = await self.request("initialize", {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                                                   "clientInfo": {"name": "hybridshell-tests", "version": "1"}})
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n").encode())
        await self.process.stdin.drain()
        return result

    async def list_tools(self):
        result = await self.request("tools/list", {})
        return SimpleNamespace(tools=[SimpleNamespace(**tool) for tool in result["tools"]])

    async def call_tool(self, name, arguments=None):
        result = await self.request("tools/call", {"name": name, "arguments": arguments or {}})
        content = [SimpleNamespace(**{"text": None, "data": None, "mimeType": None, **item}) for item in result.get("content", [])]
        return SimpleNamespace(content=content, isError=bool(result.get("isError", False)))


@contextlib.asynccontextmanager
async def open_session(command, args, env):
    """An initialized session with `command args`, ended (stdin closed, process waited) on exit."""
    if CLIENT == "mcp":
        params = StdioServerParameters(command=command, args=args, env=env)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session
        return
    process = await asyncio.create_subprocess_exec(command, *args, env=env, stdin=asyncio.subprocess.PIPE,
                                                   stdout=asyncio.subprocess.PIPE, limit=64 << 20)
    try:
        session = StdlibSession(process)
        await session.initialize()
        yield session
    finally:
        process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()

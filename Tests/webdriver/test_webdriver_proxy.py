#!/usr/bin/python3
"""`hybrid-run webdriver`: Selenium drives sessions through it, and what a web page sends is refused.

Run like test_webdriver.py (make webdriver-test, Debian's /usr/bin/python3, under Xvfb).
"""
import http.client
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from selenium import webdriver
from selenium.common.exceptions import SessionNotCreatedException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_webdriver import HYBRID_RUN, MOCKS, WAIT, WebDriverTestCase, alive, command_name, descendants, wait_until_gone  # noqa: E402

EVIL = {"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": {"binary": "/usr/bin/touch", "args": []}}}}


class Endpoint:
    """One `hybrid-run webdriver --port 0` and the URL it printed."""

    def __init__(self, extra_args=("--handlers", MOCKS)):
        self.process = subprocess.Popen([HYBRID_RUN, "webdriver", "--port", "0"] + list(extra_args),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = ""
        ready, _, _ = select.select([self.process.stdout], [], [], WAIT)
        if ready:
            line = self.process.stdout.readline()
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise AssertionError("no listening line: %r %r" % (line, self.process.stderr.read()))
        self.port = int(match.group(1))
        self.url = "http://127.0.0.1:%d" % self.port

    @property
    def driver_pid(self):
        children = [pid for pid in descendants(self.process.pid) if (command_name(pid) or "").startswith("WebKitWebDriv")]
        return children[0] if children else None

    @property
    def private_port(self):
        with open("/proc/%d/cmdline" % self.driver_pid) as cmdline:
            return int(re.search(r"--port=(\d+)", cmdline.read()).group(1))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        finally:
            self.process.stdout.close()
            self.process.stderr.close()

    def raw(self, method, path, body=None, headers=None, port=None):
        connection = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=WAIT)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()


def options():
    result = webdriver.WebKitGTKOptions()
    result.set_capability("browserName", "hybrid-run")
    return result


class ProxyTests(WebDriverTestCase):
    def setUp(self):
        self.endpoint = Endpoint()
        self.addCleanup(self.endpoint.stop)
        self.marker = os.path.join(tempfile.mkdtemp(prefix="hybrid-run-webdriver-"), "pwned")
        self.addCleanup(lambda: os.path.exists(self.marker) and os.remove(self.marker))

    def evil_body(self, binary="/usr/bin/touch"):
        body = json.loads(json.dumps(EVIL))
        body["capabilities"]["alwaysMatch"]["webkitgtk:browserOptions"].update({"binary": binary, "args": [self.marker]})
        return json.dumps(body)

    def assert_nothing_started(self):
        self.assertFalse(os.path.exists(self.marker), "the foreign binary ran")
        self.assertTrue(self.endpoint.driver_pid, "no WebKitWebDriver below hybrid-run webdriver")
        started = [command_name(pid) for pid in descendants(self.endpoint.driver_pid)]
        self.assertEqual(started, [], "WebKitWebDriver started something")

    def test_selenium_drives_a_fixture_page_through_it(self):
        driver = webdriver.Remote(command_executor=self.endpoint.url, options=options())
        try:
            self.assertEqual(driver.capabilities["browserName"], "hybrid-run")
            driver.get(self.url("index.html"))
            driver.find_element(By.ID, "name").send_keys("Ada")
            driver.find_element(By.ID, "greet").click()
            WebDriverWait(driver, WAIT).until(expected_conditions.text_to_be_present_in_element((By.ID, "greeting"), "Hello, Ada!"))
            # The session runs this hybrid-run with the endpoint's --handlers.
            self.assertEqual(driver.execute_script("return hybrid.call('mock.answer')"), {"answer": 42})
            self.assertGreater(len(driver.get_screenshot_as_png()), 1000)  # a large response, relayed whole
            processes = descendants(self.endpoint.driver_pid)
        finally:
            driver.quit()
        self.assertEqual(wait_until_gone(processes, 2.0), [])

    def test_a_text_plain_post_with_a_foreign_binary_is_refused_and_runs_nothing(self):
        status, body = self.endpoint.raw("POST", "/session", self.evil_body(), {"Content-Type": "text/plain;charset=UTF-8"})
        self.assertEqual(status, 403)
        self.assertEqual(json.loads(body)["value"]["error"], "unsupported operation")
        status, body = self.endpoint.raw("POST", "/session", self.evil_body(),
                                         {"Content-Type": "application/json", "Origin": "http://evil.example"})
        self.assertEqual(status, 403)
        status, body = self.endpoint.raw("GET", "/status", headers={"Host": "evil.example:%d" % self.endpoint.port})
        self.assertEqual(status, 403)
        self.assert_nothing_started()

    def test_a_json_post_naming_another_binary_is_refused(self):
        status, body = self.endpoint.raw("POST", "/session", self.evil_body(), {"Content-Type": "application/json"})
        self.assertEqual(status, 500)
        value = json.loads(body)["value"]
        self.assertEqual(value["error"], "session not created")
        self.assertIn("/usr/bin/touch", value["message"])
        with self.assertRaises(SessionNotCreatedException):
            opts = options()
            opts.binary_location = "/usr/bin/touch"
            webdriver.Remote(command_executor=self.endpoint.url, options=opts)
        self.assert_nothing_started()

    def test_a_web_page_reaches_neither_the_endpoint_nor_the_private_port(self):
        page = self.url("attack.html?port=%d&port=%d&marker=%s" % (self.endpoint.port, self.endpoint.private_port, self.marker))
        result = subprocess.run([HYBRID_RUN, "--url", page, "--exit-after", "close", "--timeout", str(WAIT)],
                                capture_output=True, text=True, timeout=2 * WAIT)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("attack: ", result.stdout)
        self.assert_nothing_started()

    def test_sigterm_and_sigkill_stop_webkitwebdriver_too(self):
        driver_pid = self.endpoint.driver_pid
        self.assertTrue(driver_pid)
        self.endpoint.process.send_signal(signal.SIGTERM)
        self.assertEqual(self.endpoint.process.wait(timeout=10), 0)
        self.assertEqual(wait_until_gone([driver_pid], 5), [])

        killed = Endpoint()
        self.addCleanup(killed.stop)
        driver_pid = killed.driver_pid
        killed.process.kill()
        killed.process.wait(timeout=10)
        self.assertEqual(wait_until_gone([driver_pid], 5), [], "WebKitWebDriver outlived a SIGKILLed hybrid-run webdriver")


if __name__ == "__main__":
    unittest.main(verbosity=2)

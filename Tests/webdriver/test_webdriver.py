#!/usr/bin/python3
"""Selenium drives `hybrid-run --automation` through WebKitWebDriver.

Run with Debian's /usr/bin/python3 (python3-selenium 4.8 imports only there) under Xvfb:
    make webdriver-test
or  xvfb-run -a /usr/bin/python3 -m unittest discover -s Tests/webdriver -v
HYBRID_RUN names the binary (default .build/debug/hybrid-run). Every wait is bounded; the driver
listens on 127.0.0.1 only and the fixture pages come from a loopback HTTP server.
"""
import functools
import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import unittest

from selenium import webdriver
from selenium.common.exceptions import InvalidSessionIdException, NoSuchWindowException, SessionNotCreatedException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.remote_connection import RemoteConnection
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.webkitgtk.service import Service

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HYBRID_RUN = os.path.abspath(os.environ.get("HYBRID_RUN", os.path.join(ROOT, ".build", "debug", "hybrid-run")))
WEBDRIVER = os.environ.get("WEBKIT_WEBDRIVER", "/usr/bin/WebKitWebDriver")
FIXTURES = os.path.join(ROOT, "pages", "fixtures", "webdriver")
MOCKS = os.path.join(FIXTURES, "handlers.json")
WAIT = 30  # seconds: generous, for a loaded CI machine
GONE = 2.0  # seconds a finished session's processes may take to go

# A command that never gets an answer (a hung screenshot, say) fails the test instead of hanging it.
RemoteConnection.set_timeout(2 * WAIT)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def start_fixture_server():
    handler = functools.partial(QuietHandler, directory=FIXTURES)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def descendants(pid):
    """Every process below pid (from /proc), children first."""
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        out = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True).stdout.split()
        for child in map(int, out):
            found.append(child)
            frontier.append(child)
    return found


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def command_name(pid):
    try:
        with open("/proc/%d/comm" % pid) as comm:
            return comm.read().strip()
    except OSError:
        return None


def wait_until_gone(pids, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [pid for pid in pids if alive(pid)]
        if not left:
            return []
        time.sleep(0.02)
    return [pid for pid in pids if alive(pid)]


class Session:
    """One WebKitWebDriver on 127.0.0.1 and one Selenium session on it."""

    def __init__(self, extra_args=(), browser_name="hybrid-run", log_path=None, automation=True):
        self.log_path = log_path or "/tmp/hybrid-run-webdriver-%d.log" % os.getpid()
        self.service = Service(WEBDRIVER, service_args=["--host=127.0.0.1"], log_path=self.log_path)
        self.service.start()
        options = webdriver.WebKitGTKOptions()
        options.binary_location = HYBRID_RUN
        if automation:
            options.add_argument("--automation")
        for argument in extra_args:
            options.add_argument(argument)
        options.set_capability("browserName", browser_name)
        try:
            self.driver = webdriver.Remote(command_executor=self.service.service_url, options=options)
        except BaseException:
            self.service.stop()
            raise
        self.driver.set_script_timeout(WAIT)
        self.driver.set_page_load_timeout(WAIT)

    @property
    def browser_processes(self):
        """hybrid-run and everything it started (web, network processes)."""
        return descendants(self.service.process.pid)

    def close(self):
        try:
            if self.service.process.poll() is None:  # a test may have killed the driver
                self.driver.quit()
        except Exception:  # the session may already be gone: quitting is best effort
            pass
        finally:
            self.service.stop()


class WebDriverTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = start_fixture_server()
        cls.base = "http://127.0.0.1:%d/" % cls.server.server_address[1]

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def open_session(self, extra_args=("--handlers", MOCKS)):
        session = Session(extra_args)
        self.addCleanup(session.close)
        return session

    def url(self, page):
        return self.base + page


class PageTests(WebDriverTestCase):
    """One session per test: navigate, find, click, type, script, look, resize, cookies, dialogs."""

    def setUp(self):
        self.session = self.open_session()
        self.driver = self.session.driver

    def test_reports_hybrid_run_as_the_browser(self):
        self.assertEqual(self.driver.capabilities["browserName"], "hybrid-run")

    def test_navigate_find_click_and_send_keys(self):
        self.driver.get(self.url("index.html"))
        self.assertEqual(self.driver.title, "WebDriver fixture")
        self.driver.find_element(By.ID, "name").send_keys("Ada")
        self.driver.find_element(By.ID, "greet").click()
        WebDriverWait(self.driver, WAIT).until(expected_conditions.text_to_be_present_in_element((By.ID, "greeting"), "Hello, Ada!"))
        self.assertEqual(self.driver.find_element(By.ID, "greeting").text, "Hello, Ada!")

    def test_back_forward_and_refresh(self):
        self.driver.get(self.url("index.html"))
        self.driver.find_element(By.ID, "next").click()
        WebDriverWait(self.driver, WAIT).until(expected_conditions.title_is("Second page"))
        self.driver.back()
        WebDriverWait(self.driver, WAIT).until(expected_conditions.title_is("WebDriver fixture"))
        self.driver.forward()
        WebDriverWait(self.driver, WAIT).until(expected_conditions.title_is("Second page"))
        self.driver.execute_script("window.marker = 'before refresh'")
        self.driver.refresh()
        self.assertEqual(self.driver.title, "Second page")
        self.assertIsNone(self.driver.execute_script("return window.marker === undefined ? null : window.marker"))

    def test_execute_script_takes_arguments_and_returns_values(self):
        self.driver.get(self.url("index.html"))
        self.assertEqual(self.driver.execute_script("return arguments[0] * arguments[1]", 6, 7), 42)
        element = self.driver.find_element(By.ID, "blue")
        self.assertEqual(self.driver.execute_script("return arguments[0].id", element), "blue")
        self.assertEqual(self.driver.execute_script("return {a: [1, 'two', null]}"), {"a": [1, "two", None]})

    def test_execute_async_script_awaits_a_bridge_call_to_a_mocked_handler(self):
        self.driver.get(self.url("index.html"))
        answer = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "hybrid.call('mock.answer').then(done, (e) => done('rejected: ' + e.code));")
        self.assertEqual(answer, {"answer": 42})
        failure = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "hybrid.call('mock.fail').then(() => done('resolved'), (e) => done(e.code + ': ' + e.message));")
        self.assertEqual(failure, "HANDLER_ERROR: declined")
        # execute_script also awaits a returned Promise.
        echoed = self.driver.execute_script("return hybrid.call('echo', {text: arguments[0]})", "héllo")
        self.assertEqual(echoed, {"text": "héllo"})

    def test_page_screenshot_shows_what_is_drawn(self):
        self.driver.get(self.url("index.html"))
        width, height, rows = png.decode(self.driver.get_screenshot_as_png())
        self.assertGreaterEqual((width, height), (420, 260))
        self.assertEqual(rows[50][100], (255, 0, 0), "the red block at 0,0 200x100")
        self.assertEqual(rows[230][360], (0, 0, 255), "the blue block at 300,200 120x60")
        self.assertEqual(rows[150][250], (255, 255, 255), "the white page between them")

    def test_element_screenshot_shows_the_element(self):
        # MiniBrowser 2.50.6 returns these black under Xvfb (DMA-BUF renderer); hybrid-run does not.
        self.driver.get(self.url("index.html"))
        width, height, rows = png.decode(self.driver.find_element(By.ID, "blue").screenshot_as_png)
        self.assertEqual((width, height), (120, 60))
        for x, y in [(2, 2), (60, 30), (117, 57), (2, 57), (117, 2)]:
            self.assertEqual(rows[y][x], (0, 0, 255), "pixel %d,%d" % (x, y))

    def test_window_size(self):
        self.driver.get(self.url("index.html"))
        self.driver.set_window_size(900, 700)
        self.assertEqual(self.driver.get_window_size(), {"width": 900, "height": 700})
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script("return innerWidth") == 900)
        self.assertEqual(self.driver.execute_script("return [innerWidth, innerHeight]"), [900, 700])

    def test_cookies(self):
        self.driver.get(self.url("index.html"))
        self.driver.add_cookie({"name": "flavour", "value": "oat"})
        self.assertEqual(self.driver.get_cookie("flavour")["value"], "oat")
        self.assertIn("flavour=oat", self.driver.execute_script("return document.cookie"))
        self.driver.delete_all_cookies()
        self.assertEqual(self.driver.get_cookies(), [])
        self.assertEqual(self.driver.execute_script("return document.cookie"), "")

    def test_alert_confirm_and_prompt_are_left_to_the_client(self):
        self.driver.get(self.url("dialogs.html"))
        result = (By.ID, "result")
        self.driver.find_element(By.ID, "alert").click()
        alert = WebDriverWait(self.driver, WAIT).until(expected_conditions.alert_is_present())
        self.assertEqual(alert.text, "Hello alert")
        alert.accept()
        WebDriverWait(self.driver, WAIT).until(expected_conditions.text_to_be_present_in_element(result, "alert closed"))

        self.driver.find_element(By.ID, "confirm").click()
        WebDriverWait(self.driver, WAIT).until(expected_conditions.alert_is_present()).dismiss()
        WebDriverWait(self.driver, WAIT).until(expected_conditions.text_to_be_present_in_element(result, "confirm false"))

        self.driver.find_element(By.ID, "prompt").click()
        prompt = WebDriverWait(self.driver, WAIT).until(expected_conditions.alert_is_present())
        self.assertEqual(prompt.text, "Your name?")
        prompt.send_keys("Ada")
        prompt.accept()
        WebDriverWait(self.driver, WAIT).until(expected_conditions.text_to_be_present_in_element(result, "prompt Ada"))

    def test_new_tab_and_window_switching(self):
        self.driver.get(self.url("index.html"))
        first = self.driver.current_window_handle
        self.driver.switch_to.new_window("tab")
        self.driver.get(self.url("page2.html"))
        self.assertEqual(len(self.driver.window_handles), 2)
        # Every window has its own bridge.
        self.assertEqual(self.driver.execute_script("return hybrid.call('mock.answer')"), {"answer": 42})
        self.driver.close()
        self.driver.switch_to.window(first)
        self.assertEqual(self.driver.window_handles, [first])
        self.assertEqual(self.driver.title, "WebDriver fixture")


    def test_a_target_blank_link_opens_a_window_the_client_can_switch_to(self):
        self.driver.get(self.url("index.html"))
        first = self.driver.current_window_handle
        self.driver.find_element(By.ID, "popup").click()
        WebDriverWait(self.driver, WAIT).until(lambda d: len(d.window_handles) == 2)
        popup = [handle for handle in self.driver.window_handles if handle != first][0]
        self.driver.switch_to.window(popup)
        WebDriverWait(self.driver, WAIT).until(expected_conditions.title_is("Second page"))
        self.assertEqual(self.driver.execute_script("return hybrid.call('mock.answer')"), {"answer": 42})

    def test_a_named_window_keeps_its_name_and_is_reused(self):
        # Selenium's switch_to.window(NAME) tries NAME as a handle, then each window's window.name.
        self.driver.get(self.url("named.html"))
        first = self.driver.current_window_handle
        self.driver.find_element(By.ID, "results").click()
        WebDriverWait(self.driver, WAIT).until(lambda d: len(d.window_handles) == 2)
        WebDriverWait(self.driver, WAIT).until(lambda d: self.switched_to("results"))
        WebDriverWait(self.driver, WAIT).until(expected_conditions.title_is("Second page"))
        self.assertIsNone(self.driver.execute_script("return window.opener"))
        self.driver.switch_to.window(first)
        self.driver.find_element(By.ID, "results-again").click()
        self.driver.switch_to.window("results")
        WebDriverWait(self.driver, WAIT).until(expected_conditions.title_is("WebDriver fixture"))
        self.assertEqual(len(self.driver.window_handles), 2)
        self.assertEqual(self.driver.execute_script("return window.name"), "results")

    def switched_to(self, name):
        """switch_to.window(name), false while no window has that name yet (it is set as it loads)."""
        try:
            self.driver.switch_to.window(name)
            return True
        except NoSuchWindowException:
            return False

    def test_the_page_does_not_see_what_automation_adds(self):
        self.driver.get(self.url("index.html"))
        self.assertEqual(self.driver.execute_script("return document.styleSheets.length"), 1)
        self.assertEqual(self.driver.execute_script("return document.documentElement.children.length"), 2)  # head, body


class SessionLifecycleTests(WebDriverTestCase):
    """Sessions end cleanly: in a row, on quit, on a crash, when the client goes away."""

    def test_two_sessions_in_a_row_each_leave_nothing_behind(self):
        for attempt in range(2):
            session = Session(["--handlers", MOCKS])
            try:
                session.driver.get(self.url("index.html"))
                self.assertEqual(session.driver.execute_script("return hybrid.call('mock.answer')"), {"answer": 42})
                processes = session.browser_processes
                self.assertTrue(any(command_name(pid) == "hybrid-run" for pid in processes), processes)
            finally:
                session.close()
            self.assertEqual(wait_until_gone(processes, GONE), [], "session %d left processes behind" % attempt)

    def test_a_session_without_display_gets_a_private_xvfb_that_ends_with_it(self):
        saved = os.environ.pop("DISPLAY", None)
        try:
            session = Session()
        finally:
            if saved is not None:
                os.environ["DISPLAY"] = saved
        try:
            session.driver.get(self.url("index.html"))
            self.assertTrue(session.driver.execute_script("return document.readyState") == "complete")
            processes = session.browser_processes
            self.assertTrue(any(command_name(pid) == "Xvfb" for pid in processes), processes)
        finally:
            session.close()
        self.assertEqual(wait_until_gone(processes, GONE), [], "the session left processes behind")

    def test_a_crashed_page_ends_the_session_with_a_clear_error(self):
        session = self.open_session()
        session.driver.get(self.url("index.html"))
        processes = session.browser_processes
        web = [pid for pid in processes if command_name(pid) == "WebKitWebProces"]
        self.assertTrue(web, processes)
        for pid in web:
            os.kill(pid, signal.SIGKILL)
        # The crash reaches WebKit a few ms after the kill; a command in flight then fails with an
        # unknown error, every later one with "invalid session id … page crash".
        errors = []
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                session.driver.find_element(By.ID, "blue")
            except InvalidSessionIdException as error:
                errors.append(error)
                break
            except WebDriverException as error:
                errors.append(error)
            time.sleep(0.05)
        self.assertTrue(errors and isinstance(errors[-1], InvalidSessionIdException), errors)
        self.assertIn("crash", errors[-1].msg)
        session.close()
        self.assertEqual(wait_until_gone(processes, GONE), [])

    def test_a_client_that_disconnects_takes_every_view_and_process_with_it(self):
        session = self.open_session()
        session.driver.get(self.url("index.html"))
        session.driver.switch_to.new_window("window")
        session.driver.get(self.url("page2.html"))
        processes = session.browser_processes
        self.assertGreaterEqual(len([pid for pid in processes if command_name(pid) == "WebKitWebProces"]), 2, processes)
        os.kill(session.service.process.pid, signal.SIGKILL)  # WebKitWebDriver dies mid-session
        self.assertEqual(wait_until_gone(processes, GONE), [])

    def test_closing_the_last_window_ends_the_session(self):
        session = self.open_session()
        session.driver.get(self.url("index.html"))
        processes = session.browser_processes
        session.driver.close()
        self.assertEqual(wait_until_gone(processes, GONE), [])


class BadInputTests(WebDriverTestCase):
    """Wrong arguments get an error at once, never a client left waiting."""

    def assert_session_refused(self, extra_args, browser_name="hybrid-run", automation=True):
        started = time.monotonic()
        with self.assertRaises(SessionNotCreatedException) as raised:
            Session(extra_args, browser_name=browser_name, automation=automation).close()
        self.assertLess(time.monotonic() - started, 10)
        return raised.exception

    def test_arguments_that_make_no_sense_with_automation_refuse_the_session(self):
        self.assert_session_refused(["--exit-after", "load"])

    def test_an_unknown_flag_refuses_the_session(self):
        self.assert_session_refused(["--no-such-flag"], browser_name=None)

    def test_modules_and_grants_refuse_the_session_instead_of_being_ignored(self):
        for arguments in (["--modules", "storage"], ["--modules=bogus"], ["--grant", "https://a.example=storage"]):
            with self.subTest(arguments=arguments):
                self.assert_session_refused(arguments)

    def test_browser_options_without_automation_refuse_the_session(self):
        # A binary without args is started with no arguments at all; with args that make no valid
        # run, it is a usage error. Either way the client hears at once instead of waiting forever.
        for arguments in ([], ["--handlers", MOCKS]):
            with self.subTest(arguments=arguments):
                self.assert_session_refused(arguments, automation=False)

    def test_another_browser_name_is_not_matched(self):
        # Selenium's WebKitGTKOptions asks for "MiniBrowser" unless told otherwise.
        error = self.assert_session_refused([], browser_name="MiniBrowser")
        self.assertIn("capabilities", error.msg)

    def run_cli(self, arguments, env=None):
        environment = dict(os.environ)
        environment.pop("WEBKIT_INSPECTOR_SERVER", None)
        environment.update(env or {})
        return subprocess.run([HYBRID_RUN] + arguments, capture_output=True, text=True, timeout=WAIT, env=environment)

    def test_usage_errors_on_the_command_line(self):
        cases = [
            (["--automation", "--exit-after", "load"], "--exit-after"),
            (["--automation", "pages/demo/index.html"], "a page"),
            (["test", "--automation", "pages/fixtures/test"], "cannot be combined with hybrid-run test"),
            (["kiosk", "--automation"], "cannot be combined with hybrid-run kiosk"),
            (["--automation"], "WEBKIT_INSPECTOR_SERVER"),
        ]
        for arguments, reason in cases:
            with self.subTest(arguments=arguments):
                result = self.run_cli(arguments)
                self.assertEqual(result.returncode, 4, result.stderr)
                self.assertIn("hybrid-run: error:", result.stderr)
                self.assertIn(reason, result.stderr)

    def test_a_refused_session_still_exits_with_the_usage_code(self):
        # With WEBKIT_INSPECTOR_SERVER but no client, the refusal waits a bounded time, then exits 4.
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            address = "127.0.0.1:%d" % probe.getsockname()[1]
        result = self.run_cli(["--automation", "--exit-after", "load"], env={"WEBKIT_INSPECTOR_SERVER": address})
        self.assertEqual(result.returncode, 4, result.stderr)
        self.assertIn("--exit-after", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)

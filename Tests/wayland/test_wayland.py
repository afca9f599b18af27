"""Every mode on a Wayland compositor, natively, with no X server (issue 32, item 4).

Weston's headless backend with its kiosk shell carries `--url`, `test`, WebDriver (`--automation`
through `hybrid-run webdriver`), `kiosk --check` and `doctor`; sway's headless backend (wlroots,
run as nobody: wlroots refuses to run as root) shows the kiosk's idle inhibitor, which weston 10
does not offer. No DISPLAY and no GDK_BACKEND reach hybrid-run; an `Xvfb` first on PATH only
leaves a mark, so a run that tried to start a private X server is caught.

Run by `make wayland-test` (part of `make test`) with Debian's /usr/bin/python3. Every wait is
bounded; a compositor that does not come up fails the test with its log.
"""
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "webdriver"))
from test_webdriver import HYBRID_RUN, ROOT, WAIT, wait_until_gone  # noqa: E402
from test_webdriver_proxy import Endpoint, options  # noqa: E402
from selenium import webdriver  # noqa: E402

CONSOLE_PAGE = os.path.join(ROOT, "pages", "fixtures", "engine", "console.html")
KIOSK_PROFILE = os.path.join(ROOT, "pages", "fixtures", "kiosk", "kiosk.toml")
PASSING_TEST = os.path.join(ROOT, "pages", "fixtures", "test", "hybrid", "all-pass.html")
WEBDRIVER_PAGE = os.path.join(ROOT, "pages", "fixtures", "webdriver", "index.html")


def wait_for(predicate, what, timeout=WAIT, log=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for %s%s" % (what, "\n" + log() if log else ""))


class Compositor:
    """A headless compositor on a private runtime directory; `environment` is what a client gets."""

    def __init__(self, command, socket, user=None, extra_env=None):
        self.runtime = tempfile.mkdtemp(prefix="hybrid-run-wayland-")
        os.chmod(self.runtime, 0o700)
        self.log_path = os.path.join(self.runtime, "compositor.log")
        env = {"PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": self.runtime, "HOME": self.runtime}
        env.update(extra_env or {})
        if user is not None:
            entry = pwd.getpwnam(user)
            os.chown(self.runtime, entry.pw_uid, entry.pw_gid)
            command = ["setpriv", "--reuid=%d" % entry.pw_uid, "--regid=%d" % entry.pw_gid, "--clear-groups",
                       "--pdeathsig=TERM"] + command
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(command, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        cwd=self.runtime, start_new_session=True)
        self.socket = socket
        wait_for(lambda: os.path.exists(os.path.join(self.runtime, socket)) or self.process.poll() is not None,
                 "the compositor's socket", log=self.read_log)
        if self.process.poll() is not None:
            raise AssertionError("the compositor ended: %s" % self.read_log())
        # A fake Xvfb first on PATH: a run that wanted a private X server leaves this mark and fails.
        self.bin = os.path.join(self.runtime, "bin")
        os.mkdir(self.bin)
        self.xvfb_mark = os.path.join(self.runtime, "xvfb-was-started")
        with open(os.path.join(self.bin, "Xvfb"), "w") as fake:
            fake.write("#!/bin/sh\ntouch '%s'\nexit 1\n" % self.xvfb_mark)
        os.chmod(os.path.join(self.bin, "Xvfb"), 0o755)
        self.environment = {key: value for key, value in os.environ.items()
                            if key not in ("DISPLAY", "XAUTHORITY", "GDK_BACKEND", "WAYLAND_DISPLAY")}
        self.environment.update({"WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": self.runtime,
                                 "PATH": self.bin + ":" + os.environ.get("PATH", "/usr/bin:/bin")})

    def read_log(self):
        with open(self.log_path, errors="replace") as log:
            return log.read()[-4000:]

    def run(self, *arguments, timeout=2 * WAIT):
        return subprocess.run([HYBRID_RUN] + list(arguments), env=self.environment, capture_output=True,
                              text=True, timeout=timeout)

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()
        shutil.rmtree(self.runtime, ignore_errors=True)


class WestonTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.weston = Compositor(["weston", "--backend=headless-backend.so", "--shell=kiosk-shell.so",
                                 "--socket=wayland-hs", "--width=1024", "--height=640"], "wayland-hs")

    @classmethod
    def tearDownClass(cls):
        cls.weston.stop()

    def tearDown(self):
        self.assertFalse(os.path.exists(self.weston.xvfb_mark), "hybrid-run started an X server on Wayland")

    def test_a_page_runs_with_its_console(self):
        result = self.weston.run("--url", CONSOLE_PAGE, "--exit-after", "load", "--timeout", "30")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("CONSOLE LOG hello 1", result.stdout + result.stderr)

    def test_page_tests_run(self):
        result = self.weston.run("test", PASSING_TEST, "--global-timeout", "60")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_the_kiosk_check_passes_under_the_kiosk_shell(self):
        result = self.weston.run("kiosk", "--config", KIOSK_PROFILE, "--check", "--allow-screensaver")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertRegex(result.stdout, r"PASS\s+fullscreen\s+fullscreen, 1024x640 on a 1024x640 screen")

    def test_the_kiosk_check_says_weston_cannot_hold_the_screen_on(self):
        # Weston 10 offers no idle-inhibit protocol: an honest FAIL that names the fix.
        result = self.weston.run("kiosk", "--config", KIOSK_PROFILE, "--check")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("--idle-time=0", result.stdout)

    def test_doctor_names_the_wayland_backend(self):
        result = self.weston.run("doctor", "--json")
        checks = {check["check"]: check for check in json.loads(result.stdout)}
        self.assertEqual(checks["display"]["status"], "pass", checks["display"])
        self.assertIn("Wayland display wayland-hs, drawn on natively", checks["display"]["detail"])

    def test_selenium_drives_a_page(self):
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(self.weston.environment)
        try:
            endpoint = Endpoint()
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.addCleanup(endpoint.stop)
        driver = webdriver.Remote(command_executor=endpoint.url, options=options())
        try:
            driver.get("file://" + WEBDRIVER_PAGE)
            self.assertTrue(driver.title)
            browser = driver.execute_script("return navigator.userAgent")
            self.assertIn("Linux", browser)
        finally:
            driver.quit()


@unittest.skipUnless(shutil.which("sway") and shutil.which("swaymsg"), "sway is not installed")
class SwayTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        config = tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False)
        config.write("output HEADLESS-1 resolution 1280x720\n")
        config.close()
        os.chmod(config.name, 0o644)
        cls.config = config.name
        cls.sway = Compositor(["sway", "--config", config.name], "wayland-1", user="nobody",
                              extra_env={"WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
                                         "WLR_RENDERER": "pixman"})

    @classmethod
    def tearDownClass(cls):
        cls.sway.stop()
        os.remove(cls.config)

    def sway_tree(self):
        sockets = [name for name in os.listdir(self.sway.runtime) if name.startswith("sway-ipc.")]
        if not sockets:
            return {}
        result = subprocess.run(["swaymsg", "-s", os.path.join(self.sway.runtime, sockets[0]), "-t", "get_tree", "-r"],
                                capture_output=True, text=True, timeout=WAIT)
        return json.loads(result.stdout) if result.returncode == 0 else {}

    def views(self, node):
        found = [node] if node.get("pid") else []
        for child in node.get("nodes", []) + node.get("floating_nodes", []):
            found += self.views(child)
        return found

    def test_the_kiosk_check_holds_the_screen_on_through_the_compositor(self):
        result = self.sway.run("kiosk", "--config", KIOSK_PROFILE, "--check")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertRegex(result.stdout, r"PASS\s+screen kept on\s+Wayland idle inhibitor")

    def test_a_running_kiosk_inhibits_idle_in_the_compositor(self):
        kiosk = subprocess.Popen([HYBRID_RUN, "kiosk", "--config", KIOSK_PROFILE], env=self.sway.environment,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            wait_for(lambda: any(view.get("pid") == kiosk.pid and view.get("inhibit_idle")
                                 for view in self.views(self.sway_tree())),
                     "sway to list the kiosk's window as inhibiting idle")
        finally:
            kiosk.send_signal(signal.SIGTERM)
            kiosk.wait(timeout=WAIT)
            kiosk.stderr.close()
        self.assertFalse(os.path.exists(self.sway.xvfb_mark))
        self.assertEqual(wait_until_gone([kiosk.pid], 10), [])


if __name__ == "__main__":
    unittest.main()

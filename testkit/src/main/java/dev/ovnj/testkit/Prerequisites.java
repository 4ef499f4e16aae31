package dev.ovnj.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a {@link Chassis} needs from the machine, checked once per JVM: root, {@code ip netns},
 * {@code /dev/net/tun}, python3, ethtool, and ovs-vswitchd, ovn-controller and ovs-vsctl in the
 * current release.
 */
final class Prerequisites {
    private static final Optional<String> MISSING = check();

    private Prerequisites() {
    }

    static Optional<String> missing() {
        return MISSING;
    }

    private static Optional<String> check() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return Optional.of("not Linux (the chassis needs network namespaces)");
        }
        try {
            if (!Command.of("id", "-u").check().trim().equals("0")) {
                return Optional.of("not root (network namespaces, veth pairs and ovs-vswitchd's taps need it)");
            }
            if (!Files.exists(Path.of("/dev/net/tun"))) {
                return Optional.of("no /dev/net/tun (ovs-vswitchd's userspace datapath needs it for br-int)");
            }
            for (String program : List.of("ip", "ethtool", "python3")) {
                if (!Command.of("sh", "-c", "command -v " + program).run().ok()) {
                    return Optional.of(program + " is not installed (scripts/install-ovs.sh installs it)");
                }
            }
            OvnRelease release = OvnRelease.current();
            for (String program : List.of("ovs-vswitchd", "ovn-controller", "ovs-vsctl")) {
                List<String> argv = release.command(program, "--version");
                if (!Command.of(argv).run().ok()) {
                    return Optional.of(program + " does not run from the " + release
                            + " (scripts/install-ovs.sh installs openvswitch-switch and ovn-host; a release root needs them too)");
                }
            }
            String probe = Netns.PREFIX + ProcessHandle.current().pid() + "-0";
            Command.Result made = Command.of("ip", "netns", "add", probe).run();
            if (!made.ok()) {
                return Optional.of("cannot make a network namespace: " + made.stderr().trim());
            }
            Command.of("ip", "netns", "del", probe).run();
            return Optional.empty();
        } catch (TestkitException e) {
            return Optional.of(e.getMessage());
        }
    }
}

package dev.ovnj.examples;

import dev.ovnj.testkit.Nbctl;

/** The kube-dc project the examples are written for, made with ovn-nbctl as an operator would. */
public final class SeedTopology {
    /** The project router. */
    public static final String ROUTER = "shalb-dev";
    /** The router's external port, on the EIP network 168.119.17.48/28. */
    public static final String EXTERNAL_PORT = "shalb-dev-ext";
    /** The project's switch. */
    public static final String SWITCH = "shalb-dev-default";
    /** The lowest free address of the EIP network: .48 is the network address, .51 the port's own. */
    public static final String FIRST_EIP = "168.119.17.49";

    private SeedTopology() {
    }

    /**
     * Creates the router, its external port and the switch.
     *
     * @param nbctl ovn-nbctl for the database to seed
     */
    public static void create(Nbctl nbctl) {
        nbctl.run("lr-add", ROUTER);
        nbctl.run("lrp-add", ROUTER, EXTERNAL_PORT, "02:00:00:00:00:01", "168.119.17.51/28");
        nbctl.run("ls-add", SWITCH);
    }
}

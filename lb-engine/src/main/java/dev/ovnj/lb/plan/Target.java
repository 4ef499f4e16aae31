package dev.ovnj.lb.plan;

/** Where a load balancer or group can be attached, and the columns that hold the references. */
public enum Target {
    /** {@code Logical_Router.load_balancer} / {@code load_balancer_group}. */
    ROUTER("Logical_Router"),
    /** {@code Logical_Switch.load_balancer} / {@code load_balancer_group}. */
    SWITCH("Logical_Switch"),
    /** {@code Load_Balancer_Group.load_balancer}. */
    GROUP("Load_Balancer_Group");

    private final String table;

    Target(String table) {
        this.table = table;
    }

    /**
     * The NB table.
     *
     * @return the NB table
     */
    public String table() {
        return table;
    }

    /**
     * Lower-case word for messages.
     *
     * @return lower-case word for messages
     */
    public String word() {
        return switch (this) {
            case ROUTER -> "router";
            case SWITCH -> "switch";
            case GROUP -> "group";
        };
    }
}

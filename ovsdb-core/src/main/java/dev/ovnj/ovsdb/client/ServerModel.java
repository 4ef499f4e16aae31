package dev.ovnj.ovsdb.client;

/**
 * How the connected {@code ovsdb-server} serves the database, from the {@code model} column of
 * its {@code _Server.Database} row (ovsdb-server(5)).
 */
public enum ServerModel {
    /** One server owns the database file; it takes reads and writes. */
    STANDALONE,
    /**
     * A member of a RAFT cluster. With {@link OvsdbClient.Builder#leaderOnly(boolean)} (the
     * default) only the leader is used; a follower forwards writes to the leader.
     */
    CLUSTERED,
    /**
     * A relay ({@code ovsdb-server relay:DB:SOURCE}): it keeps a copy of its source's database,
     * serves reads and monitors itself and forwards every transaction to its source. Locks taken on
     * a relay are local to that relay, not shared with the cluster.
     */
    RELAY,
    /** The server has no {@code _Server} database (ovsdb-server before 2.9, or another implementation). */
    UNKNOWN;

    static ServerModel of(String model) {
        return switch (model) {
            case "standalone" -> STANDALONE;
            case "clustered" -> CLUSTERED;
            case "relay" -> RELAY;
            default -> UNKNOWN;
        };
    }
}

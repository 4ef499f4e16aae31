package dev.ovnj.cli;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;
import java.util.function.UnaryOperator;

/**
 * A synced client of the Northbound database with an engine following its cache, closed together.
 * The engine is started even for read-only commands: it installs the cache indexes that planning
 * needs, and with no owner declared it writes nothing.
 */
final class NorthboundSession implements AutoCloseable {
    private final OvsdbClient client;
    private final LoadBalancerEngine engine;
    private final OvsdbClient southbound;

    private NorthboundSession(OvsdbClient client, LoadBalancerEngine engine, OvsdbClient southbound) {
        this.client = client;
        this.engine = engine;
        this.southbound = southbound;
    }

    /**
     * Connects and starts the engine.
     *
     * @param db the database options
     * @return the session
     * @throws CliFailure when the database is not reachable in time
     */
    static NorthboundSession open(DatabaseOptions db) {
        return open(db, UnaryOperator.identity());
    }

    /**
     * Connects and starts the engine, configured further by {@code engine} (locks, budget).
     *
     * @param db the database options
     * @param engine more engine settings
     * @return the session
     * @throws CliFailure when the database is not reachable in time
     */
    static NorthboundSession open(DatabaseOptions db, UnaryOperator<LoadBalancerEngine.Builder> engine) {
        OvsdbClient client = db.connect();
        // --timeout bounds the engine's answers too: a database that stops answering fails an
        // apply with SpecTimeoutException, which says what the engine waits for.
        return new NorthboundSession(client, engine.apply(LoadBalancerEngine.builder(client).requestTimeout(db.timeout())).build().start(),
                null);
    }

    /**
     * Connects to both databases and starts the engine with the Southbound as its read-only
     * source of backend health.
     *
     * @param db the database options
     * @param southboundRemotes the Southbound remotes (--sb)
     * @param engine more engine settings
     * @return the session
     * @throws CliFailure when a database is not reachable in time
     */
    static NorthboundSession open(DatabaseOptions db, String southboundRemotes, UnaryOperator<LoadBalancerEngine.Builder> engine) {
        OvsdbClient client = db.connect();
        OvsdbClient sb;
        try {
            sb = db.connect(southboundRemotes, "OVN_Southbound", LoadBalancerEngine.southboundMonitorRequest(), "--sb");
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        return new NorthboundSession(client,
                engine.apply(LoadBalancerEngine.builder(client).requestTimeout(db.timeout()).southbound(sb)).build().start(), sb);
    }

    /** The client. */
    OvsdbClient client() {
        return client;
    }

    /** The engine. */
    LoadBalancerEngine engine() {
        return engine;
    }

    /** Stops the engine, then the clients. */
    @Override
    public void close() {
        engine.close();
        client.close();
        if (southbound != null) {
            southbound.close();
        }
    }
}

package dev.ovnj.cli;

import dev.ovnj.lb.LoadBalancerEngine;
import dev.ovnj.ovsdb.client.OvsdbClient;

/**
 * A synced client of the Northbound database with an engine following its cache, closed together.
 * The engine is started even for read-only commands: it installs the cache indexes that planning
 * needs, and with no owner declared it writes nothing.
 */
final class NorthboundSession implements AutoCloseable {
    private final OvsdbClient client;
    private final LoadBalancerEngine engine;

    private NorthboundSession(OvsdbClient client, LoadBalancerEngine engine) {
        this.client = client;
        this.engine = engine;
    }

    /**
     * Connects and starts the engine.
     *
     * @param db the database options
     * @return the session
     * @throws CliFailure when the database is not reachable in time
     */
    static NorthboundSession open(DatabaseOptions db) {
        OvsdbClient client = db.connect();
        // --timeout bounds the engine's answers too: a database that stops answering fails an
        // apply with SpecTimeoutException, which says what the engine waits for.
        return new NorthboundSession(client, LoadBalancerEngine.builder(client).requestTimeout(db.timeout()).build().start());
    }

    /** The client. */
    OvsdbClient client() {
        return client;
    }

    /** The engine. */
    LoadBalancerEngine engine() {
        return engine;
    }

    /** Stops the engine, then the client. */
    @Override
    public void close() {
        engine.close();
        client.close();
    }
}

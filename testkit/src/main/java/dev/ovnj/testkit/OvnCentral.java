package dev.ovnj.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the {@code ovn-central} package runs: an OVN_Northbound and an OVN_Southbound
 * {@code ovsdb-server} with {@code ovn-northd} between them, started together and closed together.
 * No {@code ovn-controller} runs; fake chassis and bindings with {@link #sbctl()}.
 */
public final class OvnCentral implements AutoCloseable {
    private final Path dir;
    private final OvsdbServer northbound;
    private final OvsdbServer southbound;
    private final Northd northd;

    private OvnCentral(Path dir, OvsdbServer northbound, OvsdbServer southbound, Northd northd) {
        this.dir = dir;
        this.northbound = northbound;
        this.southbound = southbound;
        this.northd = northd;
    }

    /**
     * Starts both databases (the bundled OVN 23.03 schemas) and northd, and waits until northd is active.
     *
     * @return the running trio
     */
    public static OvnCentral start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("ovnj-central-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        OvsdbServer nb = null;
        OvsdbServer sb = null;
        try {
            nb = OvsdbServer.start();
            sb = OvsdbServer.builder().schema(Schemas.ovnSouthbound(dir)).start();
            return new OvnCentral(dir, nb, sb, Northd.start(nb, sb));
        } catch (RuntimeException e) {
            if (sb != null) {
                sb.close();
            }
            if (nb != null) {
                nb.close();
            }
            OvsdbServer.deleteTree(dir);
            throw e;
        }
    }

    /**
     * The Northbound server.
     *
     * @return the server
     */
    public OvsdbServer northbound() {
        return northbound;
    }

    /**
     * The Southbound server.
     *
     * @return the server
     */
    public OvsdbServer southbound() {
        return southbound;
    }

    /**
     * The northd between them.
     *
     * @return northd
     */
    public Northd northd() {
        return northd;
    }

    /**
     * An ovn-nbctl for the Northbound server.
     *
     * @return the runner
     */
    public Nbctl nbctl() {
        return Nbctl.of(northbound);
    }

    /**
     * An ovn-sbctl for the Southbound server.
     *
     * @return the runner
     */
    public Sbctl sbctl() {
        return Sbctl.of(southbound);
    }

    /** Waits until northd has processed every change so far ({@code ovn-nbctl --wait=sb sync}); not while paused. */
    public void sync() {
        nbctl().run("--wait=sb", "sync");
    }

    /** Stops northd, then both servers, and removes the files. */
    @Override
    public void close() {
        northd.close();
        southbound.close();
        northbound.close();
        OvsdbServer.deleteTree(dir);
    }
}

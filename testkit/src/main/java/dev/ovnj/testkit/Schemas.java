package dev.ovnj.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * Schemas that the testkit ships. The OVN Northbound schema is a copy of OVN 23.03's
 * (OVN_Northbound 7.0.0) so that every test runs against a known schema version, whatever the
 * machine has installed. When the tests run another release ({@link OvnRelease}), the files
 * written for servers ({@link #ovnNorthbound(Path)}, {@link #ovnSouthbound(Path)}) are that
 * release's own schemas, as its ovn-northd expects; the {@code *Json()} texts stay the bundled ones.
 */
public final class Schemas {
    /** Name of the database the bundled Northbound schema defines. */
    public static final String NB_DATABASE = "OVN_Northbound";
    /** Version of the bundled Northbound schema. */
    public static final String NB_VERSION = "7.0.0";

    private Schemas() {
    }

    /**
     * Writes the bundled OVN Northbound schema into {@code dir}, or the current {@link OvnRelease}'s
     * own when the tests run another release.
     *
     * @param dir an existing directory
     * @return the path of the written {@code ovn-nb.ovsschema}
     */
    public static Path ovnNorthbound(Path dir) {
        return OvnRelease.current().copySchema("ovn-nb.ovsschema", dir).orElseGet(() -> bundledNorthbound(dir));
    }

    /**
     * Writes the bundled OVN Northbound schema (OVN 23.03's, 7.0.0) into {@code dir} whatever release
     * the tests run, e.g. to check a client against the oldest release ovnj supports.
     *
     * @param dir an existing directory
     * @return the path of the written {@code ovn-nb.ovsschema}
     */
    public static Path bundledNorthbound(Path dir) {
        Path target = dir.resolve("ovn-nb.ovsschema");
        try (InputStream in = Schemas.class.getResourceAsStream("ovn-nb.ovsschema")) {
            if (in == null) {
                throw new TestkitException("ovn-nb.ovsschema missing from the testkit jar");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Returns the bundled OVN Northbound schema as text.
     *
     * @return the schema JSON
     */
    public static String ovnNorthboundJson() {
        try (InputStream in = Schemas.class.getResourceAsStream("ovn-nb.ovsschema")) {
            if (in == null) {
                throw new TestkitException("ovn-nb.ovsschema missing from the testkit jar");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes the bundled OVN Southbound schema (OVN 23.03's, OVN_Southbound 20.27.0) into {@code dir},
     * for {@link OvsdbServer.Builder#schema(Path)}, or the current {@link OvnRelease}'s own when the
     * tests run another release.
     *
     * @param dir an existing directory
     * @return the path of the written {@code ovn-sb.ovsschema}
     */
    public static Path ovnSouthbound(Path dir) {
        Optional<Path> release = OvnRelease.current().copySchema("ovn-sb.ovsschema", dir);
        if (release.isPresent()) {
            return release.get();
        }
        Path target = dir.resolve("ovn-sb.ovsschema");
        try (InputStream in = Schemas.class.getResourceAsStream("ovn-sb.ovsschema")) {
            if (in == null) {
                throw new TestkitException("ovn-sb.ovsschema missing from the testkit jar");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Returns the bundled OVN Southbound schema as text.
     *
     * @return the schema JSON
     */
    public static String ovnSouthboundJson() {
        try (InputStream in = Schemas.class.getResourceAsStream("ovn-sb.ovsschema")) {
            if (in == null) {
                throw new TestkitException("ovn-sb.ovsschema missing from the testkit jar");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

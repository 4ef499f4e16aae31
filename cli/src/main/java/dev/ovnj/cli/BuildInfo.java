package dev.ovnj.cli;

import dev.ovnj.testkit.Schemas;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What this build of ovnj is and what it was built against: its own version and the OVN release
 * (from the build, {@code version.properties}), and the OVN Northbound schema name and version
 * (those of the schema bundled in the jar, the one the typed model was generated from: the
 * testkit's constants, which its tests check against that schema; compile-time constants, so
 * {@code ovnj version} parses no JSON and starts no Jackson).
 *
 * @param ovnj ovnj's version
 * @param ovnRelease the OVN release whose schema the model is generated from
 * @param schemaName the schema's name, {@code OVN_Northbound}
 * @param schemaVersion the schema's version, e.g. {@code 7.0.0}
 */
record BuildInfo(String ovnj, String ovnRelease, String schemaName, String schemaVersion) {

    /**
     * Reads the build's facts.
     *
     * @return the facts
     */
    static BuildInfo read() {
        Properties props = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new CliFailure("ovnj: version.properties missing from the jar");
            }
            props.load(in);
            return new BuildInfo(props.getProperty("ovnj.version"), props.getProperty("ovn.release"),
                    Schemas.NB_DATABASE, Schemas.NB_VERSION);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** picocli's {@code --version}: the same facts as {@code ovnj version}. */
    static final class Provider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return read().lines();
        }
    }

    /**
     * The facts as {@code ovnj version} prints them.
     *
     * @return the lines
     */
    String[] lines() {
        return new String[] {
            "ovnj " + ovnj,
            "built against OVN " + ovnRelease + ", " + schemaName + " schema " + schemaVersion,
        };
    }
}

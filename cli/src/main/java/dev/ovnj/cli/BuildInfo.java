package dev.ovnj.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What this build of ovnj is and what it was built against: its own version and the OVN release
 * and the version of its Northbound schema that the typed model was generated from, both from the
 * build ({@code version.properties}, filtered from cli/pom.xml; {@code BuildInfoTest} holds the
 * schema version to the generated model's), so {@code ovnj version} loads no model class and
 * parses no JSON.
 *
 * @param ovnj ovnj's version
 * @param ovnRelease the OVN release whose schema the model is generated from
 * @param schemaName the schema's name, {@code OVN_Northbound}
 * @param schemaVersion the schema's version, e.g. {@code 7.18.0}
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
                    "OVN_Northbound", props.getProperty("nb.schema.version"));
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

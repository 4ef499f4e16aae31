package dev.ovnj.ovsdb.schema;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Loads the schemas stored in the test resources. */
public final class SchemaFixtures {

    private SchemaFixtures() {
    }

    /**
     * Returns the OVN_Northbound 7.0.0 schema shipped with OVN.
     *
     * @return the parsed schema
     */
    public static DatabaseSchema northbound() {
        return DatabaseSchema.parse(resource("/ovn-nb.ovsschema"));
    }

    /**
     * Returns the hand-written schema with every column shape and constraint.
     *
     * @return the parsed schema
     */
    public static DatabaseSchema allShapes() {
        return DatabaseSchema.parse(resource("/all-shapes.ovsschema"));
    }

    private static Path resource(String name) {
        try {
            return Path.of(SchemaFixtures.class.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}

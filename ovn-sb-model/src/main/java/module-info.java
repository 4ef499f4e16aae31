/** The OVN Southbound database as Java types, generated from its schema. */
@SuppressWarnings("requires-automatic")
module dev.ovnj.sb {
    requires transitive dev.ovnj.ovsdb;
    // Compile time only: Immutables' annotations and @Generated are not needed at run time, nor
    // by a module that reads this one (so javac's exports check is off here, see pom.xml).
    requires static org.immutables.value;
    requires static java.compiler;

    exports dev.ovnj.sb.model;
}

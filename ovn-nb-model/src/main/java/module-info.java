/**
 * The OVN Northbound database as Java types, generated from its schema, and the EIP view and
 * allocator built on them.
 */
@SuppressWarnings("requires-automatic")
module dev.ovnj.nb {
    requires transitive dev.ovnj.ovsdb;
    // Compile time only: Immutables' annotations and @Generated are not needed at run time, nor
    // by a module that reads this one (so javac's exports check is off here, see pom.xml).
    requires static org.immutables.value;
    requires static java.compiler;

    exports dev.ovnj.nb.model;
    exports dev.ovnj.nb.eip;
    exports dev.ovnj.nb.ip;
    exports dev.ovnj.nb.command;
}

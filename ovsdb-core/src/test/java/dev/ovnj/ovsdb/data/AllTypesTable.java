package dev.ovnj.ovsdb.data;

import dev.ovnj.ovsdb.schema.DatabaseSchema;
import dev.ovnj.ovsdb.schema.TableSchema;

/**
 * A table with a column of every OVSDB type shape (scalars, optional values, sets, maps, bounded
 * sets, references), shared by the tests of the packed row form.
 */
final class AllTypesTable {

    private AllTypesTable() {
    }

    /**
     * Parses a fresh copy of the table's schema.
     *
     * @return the table {@code All}
     */
    static TableSchema table() {
        return DatabaseSchema.parse(Json.parse("{'name':'T','version':'1.0.0','tables':{'All':{'columns':{"
                + "'i':{'type':'integer'},"
                + "'r':{'type':'real'},"
                + "'b':{'type':'boolean'},"
                + "'s':{'type':'string'},"
                + "'u':{'type':'uuid'},"
                + "'ref':{'type':{'key':{'type':'uuid','refTable':'All'},'min':0,'max':'unlimited'}},"
                + "'opt':{'type':{'key':'string','min':0,'max':1}},"
                + "'optInt':{'type':{'key':'integer','min':0,'max':1}},"
                + "'ints':{'type':{'key':'integer','min':0,'max':'unlimited'}},"
                + "'reals':{'type':{'key':'real','min':0,'max':'unlimited'}},"
                + "'bools':{'type':{'key':'boolean','min':0,'max':2}},"
                + "'strs':{'type':{'key':'string','min':0,'max':'unlimited'}},"
                + "'smap':{'type':{'key':'string','value':'string','min':0,'max':'unlimited'}},"
                + "'imap':{'type':{'key':'integer','value':{'type':'uuid','refTable':'All'},'min':0,'max':'unlimited'}},"
                + "'one':{'type':{'key':'string','min':1,'max':2}}"
                + "}}}}")).table("All");
    }
}

// The one table of the admin area, on TanStack Table: a screen gives its columns (header, cell, classes) and its
// rows, and gets the same markup on every screen: a labelled table, the one row that says it is empty, and "Load
// more" under it when the list is read a page at a time.
import { Trans } from '@lingui/react/macro';
import { Button } from '@rooms/ui/button';
import { Spinner } from '@rooms/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@rooms/ui/table';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type RowData,
  useReactTable,
} from '@tanstack/react-table';
import type { ComponentProps, ReactNode } from 'react';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes of the column's header and of each of its cells (a column hidden on narrow screens). */
    className?: string;
    /** Classes of the cells only, after `className`; a function for classes that follow the row. */
    cellClassName?: string | ((row: TData) => string);
    /** The test id of each of the column's cells. */
    cellTestId?: string;
  }
}

/** One column: its header and how a row shows in it. */
export type TDataColumn<TRow> = ColumnDef<TRow, unknown>;

/** A column: `id` keeps it apart from the others, `cell` shows a row in it. */
export function column<TRow>({
  id,
  header,
  cell,
  className,
  cellClassName,
  cellTestId,
}: {
  id: string;
  header?: ReactNode;
  cell: (row: TRow) => ReactNode;
} & NonNullable<TDataColumn<TRow>['meta']>): TDataColumn<TRow> {
  return {
    id,
    header: () => header ?? null,
    cell: (context) => cell(context.row.original),
    meta: { className, cellClassName, cellTestId },
  };
}

/** A list read a page at a time: whether there is more, whether it is coming, and how to ask for it. */
export interface TMoreRows {
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
}

type TRowProps = Omit<ComponentProps<typeof TableRow>, 'children'> &
  Record<`data-${string}`, string | undefined>;

export function DataTable<TRow>({
  rows,
  columns,
  rowId,
  rowProps,
  empty,
  label,
  testId,
  more,
}: {
  rows: TRow[];
  columns: TDataColumn<TRow>[];
  rowId: (row: TRow) => string;
  /** Attributes of a row's `<tr>`: its test id and data, a click that opens it. */
  rowProps?: (row: TRow) => TRowProps;
  /** What the one row of an empty table says. */
  empty: ReactNode;
  /** The table's name for screen readers. */
  label: string;
  testId?: string;
  /** A list read a page at a time: "Load more" under the table while there is more. */
  more?: TMoreRows;
}) {
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => rowId(row),
  });
  const shown = table.getRowModel().rows;

  return (
    <>
      <Table data-testid={testId} aria-label={label}>
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => (
                <TableHead key={header.id} className={header.column.columnDef.meta?.className}>
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </TableHead>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {shown.length === 0 ? (
            <EmptyRow columns={table.getVisibleLeafColumns().length}>{empty}</EmptyRow>
          ) : (
            shown.map((row) => (
              <TableRow key={row.id} {...rowProps?.(row.original)}>
                {row.getVisibleCells().map((cell) => (
                  <TableCell
                    key={cell.id}
                    className={cellClasses(cell.column.columnDef.meta, row.original)}
                    data-testid={cell.column.columnDef.meta?.cellTestId}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
      {more ? <LoadMore {...more} /> : null}
    </>
  );
}

function cellClasses<TRow>(meta: TDataColumn<TRow>['meta'], row: TRow): string | undefined {
  const own = typeof meta?.cellClassName === 'function' ? meta.cellClassName(row) : meta?.cellClassName;
  const classes = [meta?.className, own].filter(Boolean).join(' ');
  return classes || undefined;
}

/** The one row of a table with nothing in it. */
function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <TableRow className="hover:bg-transparent">
      <TableCell colSpan={columns} className="py-10 text-center text-muted-foreground">
        {children}
      </TableCell>
    </TableRow>
  );
}

function LoadMore({ hasMore, loading, onLoad }: TMoreRows) {
  if (!hasMore) return null;
  return (
    <div className="flex justify-center border-t p-3">
      <Button variant="outline" onClick={onLoad} disabled={loading} data-testid="load-more">
        {loading ? <Spinner /> : null}
        <Trans>Load more</Trans>
      </Button>
    </div>
  );
}

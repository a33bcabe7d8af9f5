import { allPages, type Page, pageOf, pageUrl, pageWindow, sendPage } from './paging';

describe('paging', () => {
  describe('pageWindow and pageOf', () => {
    it('reads one row more than the page holds, from the page start', () => {
      expect(pageWindow({})).toEqual({ page: 1, pageSize: 100, offset: 0, limit: 101 });
      expect(pageWindow({ page: 3, pageSize: 20 })).toEqual({ page: 3, pageSize: 20, offset: 40, limit: 21 });
      expect(pageWindow({ page: 2 }, 20)).toEqual({ page: 2, pageSize: 20, offset: 20, limit: 21 });
    });

    it('drops the extra row and reports that another page follows', () => {
      const window = pageWindow({ pageSize: 2 });
      expect(pageOf([1, 2, 3], window)).toEqual({ items: [1, 2], page: 1, pageSize: 2, hasNextPage: true });
      expect(pageOf([1, 2], window)).toEqual({ items: [1, 2], page: 1, pageSize: 2, hasNextPage: false });
      expect(pageOf([], window)).toEqual({ items: [], page: 1, pageSize: 2, hasNextPage: false });
    });
  });

  describe('pageUrl', () => {
    const url = (originalUrl: string, page = 2) => pageUrl({ headers: {}, originalUrl }, page);

    it('appends page when absent and keeps the rest as sent', () => {
      expect(url('/admin/v1/keys')).toBe('/admin/v1/keys?page=2');
      expect(url('/admin/v1/keys?')).toBe('/admin/v1/keys?page=2');
      expect(url('/admin/v1/endpoints?search=a%20b+c&pageSize=5')).toBe(
        '/admin/v1/endpoints?search=a%20b+c&pageSize=5&page=2',
      );
    });

    it('replaces page where it was, whatever its spelling, and drops repeats', () => {
      expect(url('/x?page=1&pageSize=5', 7)).toBe('/x?page=7&pageSize=5');
      expect(url('/x?pageSize=5&pag%65=1&page=9', 3)).toBe('/x?pageSize=5&page=3');
      expect(url('/x?pages=1&apage=2', 2)).toBe('/x?pages=1&apage=2&page=2');
    });

    it('falls back to url and to the raw request (Fastify, Express)', () => {
      expect(pageUrl({ headers: {}, url: '/a?b=1' }, 2)).toBe('/a?b=1&page=2');
      expect(pageUrl({ headers: {}, raw: { headers: {}, url: '/a' } }, 2)).toBe('/a?page=2');
    });

    it('percent-encodes what may not stand inside <…>', () => {
      expect(url('/x?search=<b> "c"')).toBe('/x?search=%3Cb%3E%20%22c%22&page=2');
    });
  });

  describe('sendPage', () => {
    const page = (hasNextPage: boolean): Page<number> => ({ items: [1, 2], page: 4, pageSize: 2, hasNextPage });

    it('sets Link rel="next" through either adapter\'s header method only when another page follows', () => {
      const set: unknown[][] = [];
      const fastify = { header: (...args: unknown[]) => set.push(['header', ...args]) };
      const express = { setHeader: (...args: unknown[]) => set.push(['setHeader', ...args]) };
      expect(sendPage({ headers: {}, url: '/x?pageSize=2&page=4' }, fastify, page(true))).toEqual([1, 2]);
      expect(sendPage({ headers: {}, originalUrl: '/y?page=4' }, express, page(true))).toEqual([1, 2]);
      expect(sendPage({ headers: {}, url: '/x?pageSize=2&page=4' }, fastify, page(false))).toEqual([1, 2]);
      expect(set).toEqual([
        ['header', 'Link', '</x?pageSize=2&page=5>; rel="next"'],
        ['setHeader', 'Link', '</y?page=5>; rel="next"'],
      ]);
    });
  });

  describe('allPages', () => {
    it('reads page after page of the largest size until the last', async () => {
      const rows = Array.from({ length: 1201 }, (_, i) => i);
      const requested: number[] = [];
      const all = await allPages(async ({ page = 1, pageSize = 100 }) => {
        requested.push(page);
        const window = pageWindow({ page, pageSize });
        return pageOf(rows.slice(window.offset, window.offset + window.limit), window);
      });
      expect(all).toEqual(rows);
      expect(requested).toEqual([1, 2, 3]);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { writtenDays, writtenMonths, writtenYears, yearlessDates, yearlessLabel } from './yearless-dates.js';

// Saturday 20 May 2023, noon UTC.
const AT = Date.UTC(2023, 4, 20, 12);

const days = (text: string): [string, string][] =>
  yearlessDates({ text, at: AT, tz: 'UTC' }).map((d) => [
    text.slice(d.from, d.to),
    new Date(d.start).toISOString().slice(0, d.unit === 'day' ? 10 : 7),
  ]);

describe('yearlessDates', () => {
  it.each([
    // What was done: the latest such day up to when it was said.
    ['I got my new boots on January 15th at the outlet.', 'on January 15th', '2023-01-15'],
    ['I ran a marathon on the 3rd of June and won.', 'on the 3rd of June', '2022-06-03'],
    ['We met on 2 Dec. for lunch.', 'on 2 Dec', '2022-12-02'],
    ['On Jan. 3 I ran.', 'On Jan. 3', '2023-01-03'],
    // The nearest verb decides: a plan about a thing done before is no plan for that day.
    ["I'm thinking of a shoe tree for the boots I got on December 20th.", 'on December 20th', '2022-12-20'],
    // What is to come, or what a thing is: the first such day from then on.
    ["I'm planning a trip to Chicago on March 15th.", 'on March 15th', '2024-03-15'],
    ['I am thinking of visiting Magic Kingdom around October 15th.', 'around October 15th', '2023-10-15'],
    ['The deadline is March 1st.', 'March 1st', '2024-03-01'],
    // A month: the latest up to then (the current one included), or the next for a plan.
    ['I went to Tokyo in March.', 'in March', '2023-03'],
    ['Back in May we met.', 'Back in May', '2023-05'],
    ["I'm flying to Tokyo in April.", 'in April', '2024-04'],
    // "since" looks back whatever the verb; an arrangement in place now is to come.
    ["I'm scheduled to run twice a week since March 25th.", 'March 25th', '2023-03-25'],
    ["I've been running daily since June 30th.", 'June 30th', '2022-06-30'],
    ['I have an EMG test scheduled with Dr. Johnson on April 1st.', 'on April 1st', '2024-04-01'],
    // Neither will nor past: the nearest ("left" after "my" is no verb).
    ['The numbness in my left hand is why I have a test on June 1st.', 'on June 1st', '2023-06-01'],
    ['Do you know of any charity events in June?', 'in June', '2023-06'],
    ['I have an appointment with Dr. Johnson on June 1st.', 'on June 1st', '2023-06-01'],
    ['My trip to Paris on December 20th was amazing.', 'on December 20th', '2022-12-20'],
  ])('%s', (text, said, day) => {
    expect(days(text)).toEqual([[said, day]]);
  });

  it.each([
    'We met on May 3rd, 2021.',
    'I did it on the 5th of March, 2022.',
    'Any time between April 1 - April 21, 2023 works.',
    'My cousin Olivia was born on October 5th.',
    'Our anniversary is on June 2nd.',
    'We go every January 1st.',
    'It may 15 times.',
    'I have 20 minutes.',
    'There is no February 30th.',
    'I was born in April.',
    'We went in March 2022.',
    'In may be.',
    'I went in Mar.',
  ])('no day without its year in: %s', (text) => {
    expect(days(text)).toEqual([]);
  });

  it.each([
    ['We stayed in Maui from the 20th to the 27th of April.', 'from the 20th to the 27th of April', '20–27 April 2023'],
    ['I was in the hospital from March 18-21 for therapy.', 'from March 18-21', '18–21 March 2023'],
    ['We loved our last stay from March 25th to 31st.', 'from March 25th to 31st', '25–31 March 2023'],
    ['I sold 25 pieces at the market on May 1st and 2nd.', 'May 1st and 2nd', '1–2 May 2023'],
    ['I remember it was on the 17th and 18th of April.', 'the 17th and 18th of April', '17–18 April 2023'],
    // Two days said with "and" are two days, not the run between them; a plan's are the coming ones.
    ['The costume fittings are on April 5th and 19th.', 'April 5th and 19th', '5 and 19 April 2024'],
    ["I'm flying out June 3rd to 10th.", 'June 3rd to 10th', '3–10 June 2023'],
  ])('a run of days without a year: %s', (text, said, label) => {
    expect(
      yearlessDates({ text, at: AT, tz: 'UTC' }).map((d) => [text.slice(d.from, d.to), yearlessLabel(d, 'UTC')]),
    ).toEqual([[said, label]]);
  });

  it.each([
    ['I graduated on May 15, 2019 and moved.', 'on May 15, 2019', '2019-05-15'],
    ['We wed on the 3rd of March 2021.', 'on the 3rd of March 2021', '2021-03-03'],
    ['It opened 7 July 2020.', '7 July 2020', '2020-07-07'],
  ])('a day written out with its year: %s', (text, said, day) => {
    expect(
      writtenDays({ text, tz: 'UTC' }).map((d) => [
        text.slice(d.from, d.to),
        new Date(d.start).toISOString().slice(0, 10),
      ]),
    ).toEqual([[said, day]]);
  });

  it.each(['I got them on January 15th.', 'There is no February 30, 2023.', 'It may 15, 2019 be.'])(
    'no day with its year in: %s',
    (text) => {
      expect(writtenDays({ text, tz: 'UTC' })).toEqual([]);
    },
  );

  it.each([
    ['I completed my degree in May 2020.', 'in May 2020', '2020-05-01', '2020-06-01'],
    ['Back in December of 2019 we met.', 'Back in December of 2019', '2019-12-01', '2020-01-01'],
    ['Sept. 2021 was busy.', 'Sept. 2021', '2021-09-01', '2021-10-01'],
  ])('a month written out with its year: %s', (text, said, start, end) => {
    expect(
      writtenMonths({ text, tz: 'UTC' }).map((d) => [
        text.slice(d.from, d.to),
        new Date(d.start).toISOString().slice(0, 10),
        new Date(d.end).toISOString().slice(0, 10),
      ]),
    ).toEqual([[said, start, end]]);
  });

  it.each(['I got them in January.', 'It may 2020 be.', 'We were 2020 strong in March.'])(
    'no month with its year in: %s',
    (text) => {
      expect(writtenMonths({ text, tz: 'UTC' })).toEqual([]);
    },
  );

  it.each([
    ['I adopted my dog Luna in 2019.', 'in 2019', '2019-01-01'],
    ['We moved to Denver back in 2021 and loved it.', 'back in 2021', '2021-01-01'],
    ["I've played the piano since 2015.", 'since 2015', '2015-01-01'],
  ])('a year written alone: %s', (text, said, start) => {
    expect(
      writtenYears({ text, tz: 'UTC' }).map((d) => [
        text.slice(d.from, d.to),
        new Date(d.start).toISOString().slice(0, 10),
      ]),
    ).toEqual([[said, start]]);
  });

  it.each([
    'I worked there in 2019-2020.',
    'I was there in 2019 and 2020.',
    'It costs 2019 dollars.',
    'I ran 2019 miles.',
  ])('no year written alone in: %s', (text) => {
    expect(writtenYears({ text, tz: 'UTC' })).toEqual([]);
  });
});

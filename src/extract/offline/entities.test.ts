import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpanTagger, type SpanTagger } from './nlp.js';
import { known, names, run } from './test-kit.js';

let tagger: SpanTagger;
beforeAll(async () => {
  tagger = await loadSpanTagger();
});

const typed = (texts: string[], preamble = {}): string[] =>
  run(texts, { tagger, preamble })
    .entities.filter((e) => ['person', 'organization', 'place'].includes(e.type))
    .map((e) => `${e.type}:${e.name}`);

describe('people, organizations and places', () => {
  it.each([
    ['My brother Arjun is visiting.', ['person:Arjun']],
    ['I talked to Professor Lee about it.', ['person:Professor Lee']],
    ['Dr. Sarah Kim reviewed my draft.', ['person:Sarah Kim']],
    ['I met Sarah Johnson and Priya Raman yesterday.', ['person:Sarah Johnson', 'person:Priya Raman']],
    ['Maya and I are raising money.', ['person:Maya']],
    ["I'm working at Acme Robotics as an intern.", ['organization:Acme Robotics']],
    ['I got an offer from Brightline Labs.', ['organization:Brightline Labs']],
    [
      'He runs the Human-Centered Computing lab at UMD.',
      ['organization:Human-Centered Computing lab', 'organization:University of Maryland'],
    ],
    ['I moved to Boston last month.', ['place:Boston']],
    ['I live off campus in College Park.', ['place:College Park']],
    ['We flew to Lisbon for the weekend.', ['place:Lisbon']],
    // Ordinary words capitalized mid-sentence after a place word are a place's name.
    ['We went to the Grand Canyon.', ['place:Grand Canyon']],
    ['We visited Fort Wayne last week.', ['place:Fort Wayne']],
    ['I went to the Cliffs of Moher.', ['place:Cliffs of Moher']],
    ['I interviewed at Google and Microsoft.', ['organization:Google', 'organization:Microsoft']],
    ['Yesterday Priya Raman joined as our designer.', ['person:Priya Raman']],
    ['Director Kim Budil spoke at the event.', ['person:Kim Budil']],
    ["I'm planning a trip to Walmart this weekend.", ['organization:Walmart']],
    // A list is one name a part, not one name (compromise's match runs across the commas).
    [
      'I want to visit cities like Madrid, Barcelona, and Seville.',
      ['place:Madrid', 'place:Barcelona', 'place:Seville'],
    ],
    [
      'I interviewed at Google, Microsoft and Apple.',
      ['organization:Google', 'organization:Microsoft', 'organization:Apple'],
    ],
    // Names outside compromise's lists of first and last names (MemoryBank, LoCoMo).
    ["I went to see Jay Chou's concert and it was very stunning.", ['person:Jay Chou']],
    ['Kenji Tanaka called me yesterday.', ['person:Kenji Tanaka']],
    // Not a person: a shop, whose first word is an ordinary one.
    ["We went to Trader Joe's.", []],
    // Part of a longer proper name the tagger cut (LongMemEval S dev30, LoCoMo): no person, no place.
    ['I remember playing Super Mario Advance on my Game Boy Advance.', []],
    ['I think I will start with King Family Vineyards and then go hiking.', []],
    ['I earned $420 at the Downtown Farmers Market on my last visit.', []],
    ["I volunteered at the Museum of Contemporary Art's summer festival.", ['organization:Museum of Contemporary Art']],
    ['I also loved playing The Legend of Zelda on my Game Boy.', []],
    ['Last week I went to a Harry Potter conference in the UK.', ['place:United Kingdom']],
    // An adverb opening the sentence is no person in apposition; a name in "-ly" still is (LongMemEval S dev30).
    ['Additionally, my colleague Sarah is pregnant.', ['person:Sarah']],
    ['Holly, my roommate, moved out.', ['person:Holly']],
    // A person's name takes no definite article: a product, a card, a sofa (LongMemEval S dev30).
    ['I just got a new couch from West Elm, the Harmony Sofa in dark gray velvet.', []],
    ['I think I will apply for the Chase Freedom Unlimited card.', []],
    ['I recently went to a Paul McCartney show with my parents.', ['person:Paul McCartney']],
    // A name between "my" and a thing one has is the thing's brand (LongMemEval S dev30); a person is still one.
    ["I've been really happy with my Pearl Izumi cycling gloves.", []],
    ["I'm curious about the value of my 1952 Topps Mickey Mantle baseball card.", []],
    ['I scored a pair of gently used Stuart Weitzman ankle boots.', []],
    ['My friend Sarah said hi.', ['person:Sarah']],
    // So is a name after "my" and an adjective of a thing (LongMemEval S dev30); an endearment keeps a person.
    ["I wore my old Converse Chuck Taylor's to a music festival.", []],
    ['My dear Sarah called me yesterday.', ['person:Sarah']],
    // What is played is a game or a part, not a person (LongMemEval S dev30); whom one plays with is a person.
    ['I also remember playing Pokemon Emerald on my Game Boy Advance.', []],
    ['The actress playing Amanda Wingfield was great.', []],
    ['I played tennis with Sarah Jones yesterday.', ['person:Sarah Jones']],
    // A titled name can be a brand too (LongMemEval S dev30); the title's point ends no sentence before "and I".
    ['I recently got a pair of Dr. Martens and I realized the leather is starting to crack.', []],
    ["I'm thinking of cleaning my Dr. Martens boots with the shoe cleaning kit.", []],
    ['My Dr. Patel told me to rest.', ['person:Dr. Patel']],
    // An institution named with "of" is whole, to a possessive, and a kind of thing with "a" is none (LongMemEval S dev30).
    [
      'I started with the National Association of Watch and Clock Collectors.',
      ['organization:National Association of Watch and Clock Collectors'],
    ],
    [
      "I'm visiting the Metropolitan Museum of Art's Byzantine collection.",
      ['organization:Metropolitan Museum of Art'],
    ],
    ['I study at the University of Edinburgh and I love it.', ['organization:University of Edinburgh']],
    ['How do I create and manage an Art Academy for kids?', []],
    // A saint's name names a church or a place, not a person (LongMemEval S dev30).
    ["I attended the Sunday mass at St. Mary's Church on January 2nd.", []],
    ["I'll check out the Chopp da Fábrica in Santa Teresa.", []],
    // A day after a name is no part of it; a possessive surname after a first name is the person's.
    ['I saw Caroline Tuesday at the park.', ['person:Caroline']],
    ["I'd like to explore more of Julien Baker's music.", ['person:Julien Baker']],
    ["I'm interested in exploring more of Phoebe Bridgers' music.", ['person:Phoebe Bridgers']],
    // A model code is a product's name, not a person's or a place's (LongMemEval S dev30); a number after a name is
    // not part of it.
    ["I'd love to get some more info on the Fender Mustang and Marshall MG30.", []],
    ['Any cleaning kits you would recommend for a Canon EOS 5D Mark IV camera like mine?', []],
    ["I'm considering the Cordoba 20TM Tenor Ukulele.", []],
    ['I met Sarah 2 days ago.', ['person:Sarah']],
  ])('%s', (text, expected) => {
    expect(typed([text])).toEqual(expected);
  });

  it.each([
    'Thanks! That helps a lot.',
    'Monday works for me, see you in May.',
    'I got a Python error when I ran it.',
    "I've been playing my favourite game called Apex Legends with my team.",
    "They're called Peruvian Lilies.",
    'My favorite thing is Hawaiian pizza.',
    'I tried the local Street Fighter tournament.',
    'Two of my favorites are "The Stormlight Archive" and "Kingkiller Chronicle".',
    'Is the L easy from the airport?',
    "I'm moving to CTO and I'll own product.",
    "I'm transferring some Chase Ultimate Rewards points to my account.",
    "I'm particularly interested in Java Moss and Anacharis.",
    'I\'m intrigued by "The Alice Network" after your list.',
    "I'm taking a course in Digital Marketing this fall.",
    'I want the Riley Power Couple set.',
    'I love Santa Barbara California wines.',
  ])('no junk from: %s', (text) => {
    expect(typed([text])).toEqual([]);
  });

  it('a title-only mention joins the full name, and gets the title forms as aliases', () => {
    const r = run(['I showed it to Professor Daniel Okafor today.', "Later Prof. Okafor's lab tried it."], { tagger });
    expect(names(r, 'person')).toEqual(['Daniel Okafor']);
    expect(r.entities[0]?.aliases).toEqual(expect.arrayContaining(['Professor Okafor', 'Prof. Okafor']));
  });

  it('a title the tagger knows reads as written, and its surname joins the full name (LongMemEval)', () => {
    const r = run(
      ['I had no idea the impact President Kennedy had on the space program.', 'John F Kennedy was bold.'],
      {
        tagger,
      },
    );
    expect(names(r, 'person')).toEqual(['John F Kennedy']);
    expect(r.entities[0]?.aliases).toContain('President Kennedy');
    expect(typed(['Senator Warren spoke today.'])).toEqual(['person:Senator Warren']);
  });

  it('a title inside quotes names a work, not a person', () => {
    expect(typed(['I just finished watching "The Marvelous Mrs. Maisel" and loved it.'])).toEqual([]);
    expect(typed(['I finally met Mrs. Maisel, my new neighbour.'])).toEqual(['person:Mrs. Maisel']);
  });

  it('a first name used alone becomes an alias of the full name', () => {
    const r = run(['Maya Chen joined us. Maya is handling design.'], { tagger });
    expect(r.entities.find((e) => e.name === 'Maya Chen')?.aliases).toEqual(['Maya']);
  });

  it('a nickname of a known person joins that person', () => {
    const r = run(['Hey Mel! Good to see you.'], {
      tagger,
      preamble: { mentionedEntities: [known('Melanie', 'person')] },
    });
    expect(r.entities.find((e) => e.name === 'Melanie')?.aliases).toContain('Mel');
  });

  it('a two-letter nickname joins the one person whose first name starts with it', () => {
    const r = run(['Hey Jo! Long time no see.'], {
      tagger,
      preamble: { mentionedEntities: [known('Joanna', 'person')] },
    });
    expect(r.entities.find((e) => e.name === 'Joanna')?.aliases).toContain('Jo');
    expect(names(r, 'person')).not.toContain('Jo');
  });

  it('an organization with a generic suffix is also known by its head', () => {
    const r = run(['Maya and I met Elena Park, a partner at Northgate Ventures.'], { tagger });
    expect(r.entities.find((e) => e.name === 'Northgate Ventures')?.aliases).toEqual(['Northgate']);
    expect(names(r, 'person')).toEqual(expect.arrayContaining(['Elena Park']));
  });

  it('ignores assistant turns', () => {
    expect(names(run(['Hello there, I need help.'], { tagger }))).toEqual([]);
  });
});
